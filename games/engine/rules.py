"""The move rules' public face: :func:`legal_moves` and :func:`apply_move`.

The rules themselves live by subdomain: :mod:`.walk` (walking a pawn),
:mod:`.boardstate` (landing, locking), :mod:`.generate` (legal moves of a
card), :mod:`.seven` (the 7), :mod:`.execute` (checking and playing one
move). Other rulesets plug in through :mod:`.variants`.
"""

from __future__ import annotations

from .board import SEAT_INDEX
from .boardstate import Applied, Board, Event, EventTuple, event_of, locked_n, place
from .errors import IllegalMoveError, NotationError
from .execute import execute
from .generate import gen_moves, has_move
from .notation import Discard, Move, parse_discard, parse_move
from .position import Position
from .ruleset import DM2023, Ruleset
from .seven import random_seven
from .variants import rules_of
from .walk import ENTER_CARDS, FORWARD, walk_back, walk_forward

__all__ = [
    "ENTER_CARDS",
    "FORWARD",
    "Applied",
    "Board",
    "Event",
    "EventTuple",
    "apply_move",
    "event_of",
    "execute",
    "gen_moves",
    "has_move",
    "legal_moves",
    "locked_n",
    "place",
    "random_seven",
    "walk_back",
    "walk_forward",
]
# ---------------------------------------------------------------------------
# public functions


def _seat(seat: str) -> int:
    c = SEAT_INDEX.get(seat) if isinstance(seat, str) else None
    if c is None:
        raise NotationError.of(
            "syntax", what=seat, why="the seat is Y, R, B or G", why_da="pladsen er Y, R, B eller G"
        )
    return c


def _card(card: str) -> str:
    if card not in FORWARD and card not in ("4", "7", "11", "J"):
        raise NotationError.of(
            "syntax", what=card, why="cards are 1–13 and J", why_da="kortene er 1–13 og J"
        )
    return card


def legal_moves(position: Position, seat: str, card: str, ruleset: Ruleset = DM2023) -> list[Move]:
    """Every legal move of ``card`` for the player on ``seat``, canonical and sorted.

    Sorted: ``in`` first, then steps by location order (a 7 by its parts in
    order), then swaps. Empty when the card has no legal move or the game
    is won (W1). Raises NotationError for an unknown seat or card.
    """
    c = _seat(seat)
    _card(card)
    rules = rules_of(ruleset)
    b = rules.board(position.locs)
    if b.winner() is not None:
        return []
    return rules.gen_moves(b, c, card)


def apply_move(
    position: Position, seat: str, move: Move | Discard | str, ruleset: Ruleset = DM2023
) -> Applied:
    """Play ``move`` for the player on ``seat``; the new position and events.

    ``move`` may also be a discard (``"X: 2 3 5 J"``): the discard rule (D4)
    is checked against the position — none of the shown cards has a legal
    move for ``seat`` — and the position comes back unchanged. Raises
    NotationError if ``move`` cannot be read and IllegalMoveError (with the
    ruleset's rule id) if the rules do not allow it.
    """
    c = _seat(seat)
    if isinstance(move, str):
        text = move.strip()
        m: Move | Discard = (
            parse_discard(text) if text.startswith("X:") else parse_move(text, ruleset.board)
        )
    else:
        m = move
    rules = rules_of(ruleset)
    b = rules.board(position.locs)
    won = b.winner()
    if won is not None:
        raise IllegalMoveError.of("w1", team=won)
    if isinstance(m, Discard):
        for card in dict.fromkeys(m.cards):
            playable = rules.has_move(b, c, card)
            if playable is not None:
                raise IllegalMoveError.of("d4_playable", seat=seat, card=card, move=str(playable))
        return Applied(position, [])
    events = rules.execute(b, c, m)
    return Applied(Position(b.locs, _checked=True), [event_of(e) for e in events])
