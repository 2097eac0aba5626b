"""A game record (NOTATION.md) turned into printable entries and board diagrams.

Pure: uses only the rules engine's public API. Positions come from replaying
growing prefixes of the record (the log is the truth); diagrams are taken
every ``interval`` entries and after every judge entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from games.engine import EngineError, Ruleset, get_ruleset, replay
from games.judge_words import judge_entry_label
from printing.documents.types import BoardDiagram, RecordEntry, RulingNote

DEFAULT_INTERVAL = 20


def _is_judge_entry(text: str) -> bool:
    return text.startswith("!")


def _ruleset_of(record: Mapping[str, Any]) -> Ruleset | None:
    try:
        return get_ruleset(record.get("ruleset", "dm2023"))
    except ValueError:
        return None


def _ruling_note(text: str, note: RulingNote | None, ruleset: Ruleset | None) -> tuple[str, str]:
    label, rule = judge_entry_label(text, ruleset)
    parts = [label]
    if note is not None:
        rule = note.rule or rule
        if note.reason:
            parts.append(note.reason)
        if note.judge:
            parts.append(_("judge: %(name)s") % {"name": note.judge})
    return " — ".join(p for p in parts if p), rule


def record_timeline(
    record: Mapping[str, Any],
    *,
    lang: str = "da",
    interval: int = DEFAULT_INTERVAL,
    rulings: Mapping[int, RulingNote] | None = None,
) -> tuple[list[RecordEntry], list[BoardDiagram], int | None]:
    """Entries with hits/locks, diagrams, and how many entries the engine accepted.

    Judge entries ("! VOID 12", "! P2 R R7", …) are labelled in plain words,
    with the reason, rule and judge from ``rulings`` (keyed by entry number)
    where known. A record the engine cannot read at all gives ``checked=None``
    and no diagrams. A DUO record's diagrams hold DUO positions (areas YK RK YO RO).
    """
    with translation.override(lang):
        return _timeline(record, lang=lang, interval=interval, rulings=rulings or {})


def _timeline(
    record: Mapping[str, Any], *, lang: str, interval: int, rulings: Mapping[int, RulingNote]
) -> tuple[list[RecordEntry], list[BoardDiagram], int | None]:
    texts = [str(t) for t in record.get("moves", [])]
    try:
        result = replay(record)
    except EngineError:
        return [RecordEntry(number=i, text=t) for i, t in enumerate(texts, 1)], [], None
    ruleset = _ruleset_of(record)
    entries: list[RecordEntry] = []
    diagram_at: list[tuple[int, bool]] = []
    for index, text in enumerate(texts):
        number = index + 1
        judge = _is_judge_entry(text)
        seat = "" if judge else text[0]
        note, rule = _ruling_note(text, rulings.get(number), ruleset) if judge else ("", "")
        if index < result.moves_checked:
            events = result.events[index]
            entries.append(
                RecordEntry(
                    number=number,
                    text=text,
                    seat=seat,
                    ruling=judge,
                    rule=rule,
                    note=note,
                    hits=[f"{e.colour} ({e.at})" for e in events if e.type == "hit"],
                    locks=[f"{e.colour} ({e.at})" for e in events if e.type == "lock"],
                )
            )
            if judge or number % interval == 0 or number == result.moves_checked:
                diagram_at.append((number, judge))
        elif index == result.moves_checked and result.first_error is not None:
            error = result.first_error
            note = error.message if lang == "en" else error.message_da
            entries.append(
                RecordEntry(
                    number=number, text=text, seat=seat, ruling=judge, rule=error.rule, note=note
                )
            )
        else:
            entries.append(
                RecordEntry(number=number, text=text, seat=seat, ruling=judge, rule=rule, note=note)
            )
    fields = ruleset.board_fields if ruleset is not None else 14
    diagrams = []
    for number, judge in diagram_at:
        prefix = {**record, "moves": texts[:number]}
        position = result.position if number == result.moves_checked else replay(prefix).position
        diagrams.append(
            BoardDiagram(
                after_entry=number, position=position.to_json(), ruling=judge, board_fields=fields
            )
        )
    return entries, diagrams, result.moves_checked
