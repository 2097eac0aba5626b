"""A game record (NOTATION.md) turned into printable entries and board diagrams.

Pure: uses only the rules engine's public API. Positions come from replaying
growing prefixes of the record (the log is the truth); diagrams are taken
every ``interval`` entries and after every judge entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import SEATS, EngineError, replay
from printing.documents.types import BoardDiagram, RecordEntry

DEFAULT_INTERVAL = 20


def _is_judge_entry(text: str) -> bool:
    return text.split(" ", 1)[0] not in SEATS


def record_timeline(
    record: Mapping[str, Any], *, lang: str = "da", interval: int = DEFAULT_INTERVAL
) -> tuple[list[RecordEntry], list[BoardDiagram], int | None]:
    """Entries with hits/locks, diagrams, and how many entries the engine accepted.

    A record the engine cannot read at all gives ``checked=None`` and no diagrams.
    """
    texts = [str(t) for t in record.get("moves", [])]
    try:
        result = replay(record)
    except EngineError:
        return [RecordEntry(number=i, text=t) for i, t in enumerate(texts, 1)], [], None
    entries: list[RecordEntry] = []
    diagram_at: list[tuple[int, bool]] = []
    for index, text in enumerate(texts):
        number = index + 1
        judge = _is_judge_entry(text)
        seat = "" if judge else text[0]
        if index < result.moves_checked:
            events = result.events[index]
            entries.append(
                RecordEntry(
                    number=number,
                    text=text,
                    seat=seat,
                    ruling=judge,
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
            entries.append(RecordEntry(number=number, text=text, seat=seat, ruling=judge))
    diagrams = []
    for number, judge in diagram_at:
        prefix = {**record, "moves": texts[:number]}
        position = result.position if number == result.moves_checked else replay(prefix).position
        diagrams.append(BoardDiagram(after_entry=number, position=position.to_json(), ruling=judge))
    return entries, diagrams, result.moves_checked
