"""Replay of game records (RULES.md D1–D6, W1; NOTATION.md "Game record").

The log is the truth: :func:`replay` rebuilds a game from its record, entry by
entry, and reports the first entry the rules reject. A played move is checked
by validating that one move (not by generating all moves); only a discard
needs a search, to prove that no shown card could be played (D4).

Judge entries (``!``) are registered here with the game flow (:mod:`.flow`),
which keeps the flow free of judge imports and the judge free of replay.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .boardstate import Event, event_of
from .duo.game import DUO_ENTRY_HANDLERS, DuoState
from .duo.position import DuoPosition
from .duo.record import run_record
from .errors import EngineError
from .flow import ENTRY_HANDLERS, EntryHandler, Game, GameState, read_record
from .judge import JUDGE_PREFIX, apply_judge_entry
from .notation import Discard, Move, parse_entry
from .position import Position
from .ruleset import Ruleset

__all__ = [
    "ENTRY_HANDLERS",
    "EntryHandler",
    "Game",
    "GameState",
    "ReplayError",
    "ReplayResult",
    "ReplayStep",
    "read_record",
    "replay_duo",
    "replay_four_seat",
    "replay_steps",
]

ENTRY_HANDLERS[JUDGE_PREFIX] = apply_judge_entry
DUO_ENTRY_HANDLERS[JUDGE_PREFIX] = apply_judge_entry

AnyPosition = Position | DuoPosition
"""A position of any ruleset: both have ``to_json``, ``locs``, ``locked(seat)``, ``winner()``."""
AnyState = GameState | DuoState
"""The deal and turn state of any ruleset: the same fields and methods (``play``…)."""


@dataclass(frozen=True)
class ReplayError:
    """The first entry of a record that the engine rejected."""

    index: int
    move: str
    rule: str
    message: str
    message_da: str

    def to_json(self) -> dict[str, Any]:
        """``{"index", "move", "rule", "message", "message_da"}``."""
        return {
            "index": self.index,
            "move": self.move,
            "rule": self.rule,
            "message": self.message,
            "message_da": self.message_da,
        }


@dataclass(frozen=True)
class ReplayResult:
    """Outcome of :func:`replay`."""

    ok: bool
    moves_checked: int
    position: AnyPosition
    winner: str | None
    """The side that won, ``"YB"`` or ``"RG"`` (in DUO, Y's side or R's), or None."""
    first_error: ReplayError | None
    state: AnyState
    events: list[list[Event]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The NOTATION.md replay answer."""
        return {
            "ok": self.ok,
            "moves_checked": self.moves_checked,
            "position": self.position.to_json(),
            "winner": self.winner,
            "first_error": None if self.first_error is None else self.first_error.to_json(),
        }


def replay_four_seat(record: Mapping[str, Any], ruleset: Ruleset | None) -> ReplayResult:
    """Replay a four-seat record (:func:`.variant.replay` is the public call);
    ``ruleset`` None reads it from the record's frame."""
    _, game, moves = read_record(record, ruleset)
    all_events: list[list[Event]] = []
    error: ReplayError | None = None
    entry = game.entry
    for index, text in enumerate(moves):
        try:
            evs = entry(text, moves, index)
        except EngineError as e:
            error = ReplayError(index, str(text), e.rule, e.message_en, e.message_da)
            break
        all_events.append([event_of(t) for t in evs] if evs else [])
    state = game.snapshot()
    return ReplayResult(
        ok=error is None,
        moves_checked=len(all_events),
        position=state.position,
        winner=game.winner,
        first_error=error,
        state=state,
        events=all_events,
    )


def replay_duo(record: Mapping[str, Any], ruleset: Ruleset) -> ReplayResult:
    """Replay a DUO record (:func:`.variant.replay` is the public call)."""
    game, events, error = run_record(record, ruleset)
    state = game.snapshot()
    return ReplayResult(
        ok=error is None,
        moves_checked=len(events),
        position=state.position,
        winner=state.winner,
        first_error=None if error is None else ReplayError(**error),
        state=state,
        events=events,
    )


@dataclass(frozen=True)
class ReplayStep:
    """One accepted entry of a record and the game just after it."""

    index: int
    entry: str
    seat: str | None
    """The seat that played or discarded; None for a judge entry."""
    action: Move | Discard | None
    """The parsed move or discard; None for a judge entry."""
    position: Position
    events: list[Event]
    winner: str | None


def replay_steps(record: Mapping[str, Any], ruleset: Ruleset | None = None) -> Iterator[ReplayStep]:
    """Replay a record entry by entry, yielding each accepted entry with the position after it.

    For statistics and pictures of a game over time. Stops at the first entry
    the rules reject (:func:`replay` reports which); a malformed record frame
    raises NotationError/PositionError as in :func:`replay`.
    """
    _, game, moves = read_record(record, ruleset)
    board = game.ruleset.board
    for index, text in enumerate(moves):
        try:
            events = game.entry(text, moves, index)
        except EngineError:
            return
        seat: str | None = None
        action: Move | Discard | None = None
        if isinstance(text, str) and text.split(" ", 1)[0] not in ENTRY_HANDLERS:
            seat, action = parse_entry(text, board)
        yield ReplayStep(
            index=index,
            entry=str(text),
            seat=seat,
            action=action,
            position=Position(game.board.locs, _checked=True),
            events=[event_of(e) for e in events] if events else [],
            winner=game.winner,
        )
