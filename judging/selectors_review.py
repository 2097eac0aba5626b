"""Reads for judges on the floor: calls, the replay viewer, rulings, incident history.

(The dashboard selector lives in ``judging.selectors``.)
"""

from __future__ import annotations

import html
import re
from typing import Any

from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import format_html, strip_tags
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.engine import EngineError, entry_marks, replay
from games.judge_words import judge_entry_words
from games.models import Game
from games.selectors import game_log, game_record
from judging.models import JudgeCall, MoveRefusal, Ruling
from judging.rules_text import RULES_HTML
from judging.selectors_records import judge_name
from tournament.models import Pair, Tournament

_PENALTY_KINDS = (Ruling.Kind.PENALTY, Ruling.Kind.WARNING)
_ENTRY_RE = re.compile(r"^([YRBG]) (X|\d{1,2}|J):")


def _language() -> str:
    return "en" if (translation.get_language() or "da").startswith("en") else "da"


def _rule_found(rule: str, ruleset: str) -> tuple[str, str] | None:
    """(language, HTML) of the ruleset's text for the rule: the viewer's language, or
    English where the ruleset's reading has no Danish; None for an id it lacks."""
    texts = RULES_HTML.get(ruleset, {}).get(rule.strip().upper())
    if not texts:
        return None
    language = _language() if _language() in texts else "en"
    return language, texts[language]


def rule_html(rule: str, *, ruleset: str = "dm2023") -> SafeString:
    """The ruleset's text of the rule in the viewer's language, rendered (empty for an
    id the ruleset's reading lacks). A text the reading has in English only is marked
    ``lang="en"`` under a note saying so.

    Safe to mark: ``judging/rules_text.py`` is generated from the rule documents
    with raw HTML switched off, so every tag in it came from the markdown.
    """
    found = _rule_found(rule, ruleset)
    if found is None:
        return SafeString("")
    language, text = found
    if language == _language():
        return mark_safe(text)  # noqa: S308
    note = _("This ruleset's reading exists in English only; the text is the English reading.")
    return format_html(
        '<p class="rule-note">{}</p><div lang="en">{}</div>',
        note,
        mark_safe(text),  # noqa: S308
    )


def rule_language(rule: str, *, ruleset: str = "dm2023") -> str:
    """The language the ruleset's text of the rule is shown in (empty without a text)."""
    found = _rule_found(rule, ruleset)
    return found[0] if found else ""


def rule_text(rule: str, *, ruleset: str = "dm2023") -> str:
    """The ruleset's text of the rule as plain text (for JSON and searches), without
    the English-only note."""
    found = _rule_found(rule, ruleset)
    return " ".join(html.unescape(strip_tags(found[1])).split()) if found else ""


def _local(at: Any) -> str:
    return timezone.localtime(at).strftime("%H:%M") if at else ""


def call_json(call: JudgeCall) -> dict[str, Any]:
    return {
        "id": call.pk,
        "game_id": call.game_id,
        "table": call.game.table_number,
        "status": call.status,
        "status_label": str(call.get_status_display()),
        "seq": call.seq,
        "entry": call.entry_text,
        "reason": call.reason,
        "created_at": call.created_at.isoformat(),
        "created_at_local": _local(call.created_at),
        "taken_by": judge_name(call.taken_by),
        "taken_at_local": _local(call.taken_at),
        "paused_clock": call.paused_clock,
    }


def calls_open(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Open and taken calls of the event, oldest first, with the review page link."""
    calls = (
        JudgeCall.objects.filter(tournament=tournament)
        .exclude(status=JudgeCall.Status.CLOSED)
        .select_related("game", "taken_by")
    )
    out = []
    for call in calls:
        data = call_json(call)
        data["review_url"] = reverse("judging:review", args=[tournament.slug, call.game_id])
        if call.seq:
            data["review_url"] += f"?at={call.seq}"
        out.append(data)
    return out


def ruling_json(ruling: Ruling) -> dict[str, Any]:
    return {
        "id": ruling.pk,
        "game_id": ruling.game_id,
        "kind": ruling.kind,
        "kind_label": str(ruling.get_kind_display()),
        "rule": ruling.rule,
        "seat": ruling.seat,
        "entry_seq": ruling.entry_seq,
        "entries": ruling.log_entries,
        "reason": ruling.reason,
        "judge": judge_name(ruling.judge),
        # Undone by a judge (RULES.md J2): the ruling no longer counts.
        "undone": ruling.undone_by_id is not None,
        "created_at": ruling.created_at.isoformat(),
        "created_at_local": _local(ruling.created_at),
    }


def table_judge_status(*, game: Game) -> dict[str, Any]:
    """What the table page shows: the open call (and who is coming) and every ruling."""
    call = (
        JudgeCall.objects.filter(game=game)
        .exclude(status=JudgeCall.Status.CLOSED)
        .select_related("game", "taken_by")
        .first()
    )
    rulings = Ruling.objects.filter(game=game).select_related("judge")
    return {
        "call": call_json(call) if call else None,
        "rulings": [ruling_json(r) for r in rulings],
    }


def game_rulings(*, game: Game) -> list[dict[str, Any]]:
    return [ruling_json(r) for r in Ruling.objects.filter(game=game).select_related("judge")]


def rulings_search(
    *, tournament: Tournament, q: str = "", rule: str = "", limit: int = 200
) -> QuerySet[Ruling]:
    """All rulings of an event, newest first, by rule id and/or words of the reason."""
    rulings = Ruling.objects.filter(tournament=tournament).select_related(
        "judge", "game__round", "pair"
    )
    if rule.strip():
        rulings = rulings.filter(rule__iexact=rule.strip())
    for word in q.split()[:8]:
        rulings = rulings.filter(
            Q(reason__icontains=word) | Q(rule__iexact=word) | Q(kind__iexact=word)
        )
    return rulings.order_by("-created_at", "-pk")[:limit]


def _seat_pair(game: Game, seat: str) -> int | None:
    if seat in ("Y", "B"):
        return game.pair_yb_id
    if seat in ("R", "G"):
        return game.pair_rg_id
    return None


def incidents_for_pairs(*, tournament: Tournament, pairs: list[Pair]) -> list[dict[str, Any]]:
    """Per pair across the event: calls at its tables, refused moves, penalties, rulings."""
    ids = [p.pk for p in pairs]
    games_q = Q(game__pair_yb_id__in=ids) | Q(game__pair_rg_id__in=ids)
    calls = list(
        JudgeCall.objects.filter(games_q, tournament=tournament).select_related("game__round")
    )
    refusals = list(
        MoveRefusal.objects.filter(tournament=tournament, pair_id__in=ids).select_related(
            "game__round"
        )
    )
    rulings = list(
        Ruling.objects.filter(games_q, tournament=tournament).select_related("game__round", "judge")
    )
    out = []
    for pair in pairs:

        def plays(game: Game, pair: Pair = pair) -> bool:
            return pair.pk in (game.pair_yb_id, game.pair_rg_id)

        pair_rulings = [
            r
            for r in rulings
            if plays(r.game) and (not r.seat or _seat_pair(r.game, r.seat) == pair.pk)
        ]
        out.append(
            {
                "pair_id": pair.pk,
                "pair": pair.display_name,
                "calls": [
                    {"round": c.game.round.number, "table": c.game.table_number,
                     "reason": c.reason, "entry": c.entry_text, "at": _local(c.created_at)}
                    for c in calls if plays(c.game)
                ],
                "refusals": [
                    {"round": m.game.round.number, "table": m.game.table_number, "seat": m.seat,
                     "text": m.text, "rule": m.rule, "at": _local(m.created_at)}
                    for m in refusals if m.pair_id == pair.pk
                ],
                "penalties": [
                    {**ruling_json(r), "round": r.game.round.number}
                    for r in pair_rulings if r.kind in _PENALTY_KINDS
                ],
                "rulings": [
                    {**ruling_json(r), "round": r.game.round.number}
                    for r in pair_rulings if r.kind not in _PENALTY_KINDS
                ],
            }
        )  # fmt: skip
    return out


# --- replay viewer --------------------------------------------------------------


def _highlights(before: dict[str, list[str]], after: dict[str, list[str]]) -> list[str]:
    changed: list[str] = []
    for colour in before:
        old, new = list(before[colour]), list(after[colour])
        for loc in before[colour]:
            if loc in new:
                new.remove(loc)
                old.remove(loc)
        changed.extend(new)
    return changed


def game_review(*, game: Game, at: int | None = None) -> dict[str, Any]:
    """The replay viewer at entry ``at`` (0 = before the first entry; default: the last).

    The board after the entry, the moved pawns and the hits and locks of the
    entry, the engine's verdict on it (re-checked from the position before),
    the rule it falls under (id and text) and every legal move of that card
    at that moment.
    """
    # The log's replayed view: the entries, without the table's legal moves.
    entries = game_log(game=game).entries
    texts = [e.text for e in entries]
    n = len(entries)
    at = n if at is None else max(0, min(at, n))
    before = replay(game_record(game=game, moves=texts[: max(0, at - 1)]))
    after = replay(game_record(game=game, moves=texts[:at])) if at else before
    ruleset = after.state.ruleset
    marks = entry_marks(texts)
    data: dict[str, Any] = {
        "game_id": game.pk,
        "at": at,
        "count": n,
        "nav": {"first": 0, "prev": max(0, at - 1), "next": min(n, at + 1), "last": n},
        "position": after.position.to_json(),
        "seats": list(ruleset.seats),
        "locked": {s: after.position.locked(s) for s in ruleset.seats},
        "to_move": after.state.to_move,
        "hand_sizes": dict(after.state.hand_sizes),
        "winner": after.winner,
        "entries": [
            {
                **e.to_json(),
                "mark": marks.get(e.seq, ""),
                "judge": e.text.startswith("!"),
                "words": judge_entry_words(e.text, ruleset) if e.text.startswith("!") else "",
            }
            for e in entries
        ],
        "entry": None,
        "status": game.status,
    }
    if not at:
        return data
    entry = entries[at - 1]
    text = entry.text
    info: dict[str, Any] = {
        **entry.to_json(),
        "mark": marks.get(at, ""),
        "highlight": _highlights(before.position.to_json(), after.position.to_json())
        + [e["at"] for e in entry.events if isinstance(e, dict) and e.get("at")],
        "verdict": None,
        "rule": "",
        "rule_text": "",
        "rule_html": "",
        "rule_language": "",
        "card": None,
        "legal": [],
        "seat_to_move": before.state.to_move,
    }
    match = _ENTRY_RE.match(text)
    if match and before.ok:
        seat, card = match[1], match[2]
        info["card"] = card
        try:
            before.state.play(text)
            info["verdict"] = {
                "ok": True,
                "rule": "",
                "message": _("The entry is legal."),
            }
            info["rule"] = ruleset.card_rule(card)
        except EngineError as err:
            info["verdict"] = {
                "ok": False,
                "rule": err.rule,
                "message": err.message_en if _language() == "en" else err.message_da,
            }
            info["rule"] = err.rule
        legal = before.state.legal_entries() if before.state.to_move == seat else {}
        if card == "X":
            cards = text.split(":", 1)[1].split()
            info["legal"] = [m for c in cards for m in legal.get(c, [])]
        else:
            info["legal"] = legal.get(card, [])
    # The game's ruleset's own text: the same id means another rule in another
    # reading (DUO's ids are its own), so no other ruleset's text stands in.
    if info["rule"]:
        info["rule_text"] = rule_text(info["rule"], ruleset=ruleset.name)
        info["rule_html"] = rule_html(info["rule"], ruleset=ruleset.name)
        info["rule_language"] = rule_language(info["rule"], ruleset=ruleset.name)
    data["entry"] = info
    return data
