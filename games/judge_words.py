"""Judge entries ("! VOID 12", "! P2 R R7", …) in plain words, in the active language.

Wherever the log is shown to people (the printed game record, the judges'
pages, the table and the live view's JavaScript, static/js/table/text.js)
a judge entry reads as a sentence; the notation is shown only on demand.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine import EngineError, Ruleset, parse_judge_entry


def _seat_name(seat: str) -> str:
    return {"Y": _("Yellow"), "R": _("Red"), "B": _("Blue"), "G": _("Green")}.get(seat, seat)


def _team_name(team: str) -> str:
    return {"YB": _("Yellow/Blue"), "RG": _("Red/Green")}.get(team, team)


def _numbers(numbers: tuple[int, ...]) -> str:
    return ", ".join(str(n) for n in numbers)


def judge_entry_label(text: str, ruleset: Ruleset | None = None) -> tuple[str, str]:
    """A judge entry ("! P2 R R7") in plain words (active language) and its rule id.

    ``ruleset`` is the record's (a DUO entry names its players: "! P2 R RO7").
    An entry the engine cannot read gives ``("", "")``.
    """
    try:
        entry = parse_judge_entry(text, ruleset)
    except EngineError:
        return "", ""
    seat = _seat_name(entry.seat or "")
    if entry.kind == "UPHOLD":
        return _("Entry %(number)s upheld as logged") % {"number": _numbers(entry.entries)}, ""
    if entry.kind == "VOID":
        label = _("Entries voided: %(numbers)s") % {"numbers": _numbers(entry.entries)}
        if entry.keep:
            label += "; " + _("kept without moving: %(numbers)s") % {
                "numbers": _numbers(entry.keep)
            }
        return label, ""
    if entry.kind == "SET":
        return _("Position corrected by the judge"), ""
    if entry.kind == "P1":
        return _("Penalty P1: %(seat)s is dealt 3 cards at the next deal") % {"seat": seat}, "P1"
    if entry.kind == "P2":
        return _("Penalty P2: %(seat)s's pawn on %(field)s goes back to its start circle") % {
            "seat": seat,
            "field": entry.at,
        }, "P2"
    if entry.kind in ("P3", "P4"):
        label = _("Penalty %(penalty)s for %(seat)s") % {"penalty": entry.kind, "seat": seat}
        if entry.move:
            label += "; " + _("forced move %(move)s") % {"move": entry.move}
        return label, entry.kind
    if entry.kind == "WARN":
        return _("Warning to %(seat)s") % {"seat": seat}, entry.rule or ""
    if entry.kind == "UNDO":
        return _("Ruling undone: entries %(numbers)s no longer count") % {
            "numbers": _numbers(entry.entries)
        }, "J2"
    if entry.kind == "RESULT":
        # A DUO side is one player: named by its seat (duo.md S1; W2 decides on time).
        team = _seat_name((entry.team or "")[:1]) if entry.duo else _team_name(entry.team or "")
        if entry.on_time:
            return _("Decided on time: %(team)s wins") % {"team": team}, (
                "W2" if entry.duo else "W3"
            )
        return _("Game awarded to %(team)s") % {"team": team}, ""
    return "", ""


def judge_entry_words(text: str, ruleset: Ruleset | None = None) -> str:
    """The entry in words, or the entry as written when the engine cannot read it."""
    return judge_entry_label(text, ruleset)[0] or text
