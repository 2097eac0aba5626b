"""The ruleset-neutral API: one call for every ruleset, four-seat or DUO.

Callers (the server's tables, judging, printing) name the ruleset and never
branch on it: positions, states, moves, distances and proposals come from
the ruleset's own engine (``games.engine`` for the four-seat boards,
``games.engine.duo`` for DUO), in the same shapes. :func:`~.game.replay`
itself dispatches on ``record["ruleset"]``; ``Ruleset.seats`` and
``Ruleset.teams`` name a table's seats and sides.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import duo
from .boardstate import Event
from .distance import adjudicate, remaining_distance
from .duo.game import DuoState
from .duo.position import DuoPosition
from .flow import GameState
from .notation import format_move, parse_move
from .position import Position
from .rules import apply_move, legal_moves
from .ruleset import Ruleset

__all__ = [
    "adjudicate",
    "canonical_move",
    "initial_position",
    "initial_state",
    "position_from_json",
    "position_legal_moves",
    "position_play",
    "remaining_distance",
]


def initial_position(ruleset: Ruleset) -> Position | DuoPosition:
    """Every pawn at home (S2 of the ruleset)."""
    if ruleset.players == 2:
        return DuoPosition.initial(ruleset.board_fields)
    return Position.initial()


def position_from_json(data: Mapping[str, Any], ruleset: Ruleset) -> Position | DuoPosition:
    """Read a position in the ruleset's notation; raises PositionError."""
    if ruleset.players == 2:
        return DuoPosition.from_json(data, ruleset.board_fields)
    return Position.from_json(data, ruleset)


def initial_state(
    first_dealer: str, ruleset: Ruleset, start: Position | DuoPosition | None = None
) -> GameState | DuoState:
    """The deal and turn state before a game's first entry; raises NotationError."""
    if ruleset.players == 2:
        return DuoState.initial(
            first_dealer, ruleset, start if isinstance(start, DuoPosition) else None
        )
    return GameState.initial(first_dealer, ruleset, start if isinstance(start, Position) else None)


def canonical_move(text: str, ruleset: Ruleset) -> str:
    """The canonical text of a move in the ruleset's notation; raises NotationError."""
    if ruleset.players == 2:
        return str(duo.parse_move(text, ruleset.board_fields))
    return format_move(parse_move(text, ruleset.board))


def position_legal_moves(
    position: Position | DuoPosition, seat: str, card: str, ruleset: Ruleset
) -> list[str]:
    """The canonical texts of every legal move of ``card`` for ``seat``."""
    if isinstance(position, DuoPosition):
        return [str(m) for m in duo.legal_moves(position, seat, card)]
    return [str(m) for m in legal_moves(position, seat, card, ruleset)]


def position_play(
    position: Position | DuoPosition, seat: str, move: str, ruleset: Ruleset
) -> tuple[Position | DuoPosition, list[Event]]:
    """Play ``move`` (or check a discard) for ``seat``: the new position and its events.

    Raises NotationError or IllegalMoveError with the ruleset's rule id.
    """
    if isinstance(position, DuoPosition):
        applied = duo.apply_move(position, seat, move)
        return applied.position, [Event(e["type"], e["colour"], e["at"]) for e in applied.events]
    done = apply_move(position, seat, move, ruleset)
    return done.position, list(done.events)
