"""The ruleset-neutral API: one call for every ruleset, four-seat or DUO.

Callers (the server's tables, judging, printing) name the ruleset and never
branch on it: each call asks the ruleset's :class:`~.variant.Variant` (the
registry in :mod:`.variant`), which answers in the same shapes for every
ruleset. ``Ruleset.seats`` and ``Ruleset.teams`` name a table's seats and
sides.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .boardstate import Event
from .distance import adjudicate, remaining_distance
from .game import AnyPosition, AnyState
from .ruleset import Ruleset
from .variant import variant_of

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


def initial_position(ruleset: Ruleset) -> AnyPosition:
    """Every pawn at home (S2 of the ruleset)."""
    return variant_of(ruleset).initial_position()


def position_from_json(data: Mapping[str, Any], ruleset: Ruleset) -> AnyPosition:
    """Read a position in the ruleset's notation; raises PositionError."""
    return variant_of(ruleset).position_from_json(data)


def initial_state(
    first_dealer: str, ruleset: Ruleset, start: AnyPosition | None = None
) -> AnyState:
    """The deal and turn state before a game's first entry; raises NotationError."""
    return variant_of(ruleset).initial_state(first_dealer, start)


def canonical_move(text: str, ruleset: Ruleset) -> str:
    """The canonical text of a move in the ruleset's notation; raises NotationError."""
    return variant_of(ruleset).canonical_move(text)


def position_legal_moves(
    position: AnyPosition, seat: str, card: str, ruleset: Ruleset
) -> list[str]:
    """The canonical texts of every legal move of ``card`` for ``seat``."""
    return variant_of(ruleset).legal_moves(position, seat, card)


def position_play(
    position: AnyPosition, seat: str, move: str, ruleset: Ruleset
) -> tuple[AnyPosition, list[Event]]:
    """Play ``move`` (or check a discard) for ``seat``: the new position and its events.

    Raises NotationError or IllegalMoveError with the ruleset's rule id.
    """
    return variant_of(ruleset).play(position, seat, move)
