"""Where a ruleset's move rules plug in: one :class:`MoveRules` per board.

The game flow (:mod:`.flow`), replay, self-play, effects and the public
functions ask :func:`rules_of` for the rules of a :class:`~.ruleset.Ruleset`
and never branch on its name. ``dm2023`` and ``fr`` share the dm board (``fr``
without F6); the printed rulebook has its own (:mod:`.rulebook`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from . import execute as shared_execute
from . import generate, rulebook, seven
from .boardstate import Board, EventTuple
from .notation import Move
from .rulebook import RulebookBoard
from .ruleset import Ruleset
from .walk import pawn_distances as dm_distances


class MoveRules(Protocol):
    """The move rules of one board, on the integer :class:`~.boardstate.Board`."""

    def board(self, locs: Sequence[int]) -> Board:
        """A mutable board of the position ``locs``."""

    def gen_moves(self, b: Board, seat_c: int, card: str) -> list[Move]:
        """Every legal move of ``card`` for seat colour ``seat_c``, canonical order."""

    def has_move(self, b: Board, seat_c: int, card: str) -> Move | None:
        """A legal move of ``card`` if there is one."""

    def random_seven(self, b: Board, seat_c: int, rng: random.Random) -> Move | None:
        """A random legal 7, or None."""

    def execute(self, b: Board, seat_c: int, move: Move) -> list[EventTuple]:
        """Check ``move`` and play it on ``b`` (partly changed on error)."""

    def wins(self, b: Board, seat_c: int, events: list[EventTuple]) -> bool:
        """True if the move just played by ``seat_c`` won the game (W1)."""

    def pawn_distances(self, locs: Sequence[int]) -> list[list[int]]:
        """Remaining distance of each pawn per colour, location order (W3)."""


class DmRules:
    """RULES.md B1–C9 on the dm board; ``f6`` switches the 2023 rule (off for ``fr``)."""

    def __init__(self, f6: bool) -> None:
        self.f6 = f6

    def board(self, locs: Sequence[int]) -> Board:
        return Board(locs)

    def gen_moves(self, b: Board, seat_c: int, card: str) -> list[Move]:
        return generate.gen_moves(b, seat_c, card, self.f6)

    def has_move(self, b: Board, seat_c: int, card: str) -> Move | None:
        return generate.has_move(b, seat_c, card, self.f6)

    def random_seven(self, b: Board, seat_c: int, rng: random.Random) -> Move | None:
        return seven.random_seven(b, seat_c, rng, self.f6)

    def execute(self, b: Board, seat_c: int, move: Move) -> list[EventTuple]:
        return shared_execute.execute(b, seat_c, move, self.f6)

    def wins(self, b: Board, seat_c: int, events: list[EventTuple]) -> bool:
        # only a lock can complete a team (W1), and every lock is an event
        return bool(events) and b.team_won(seat_c)

    def pawn_distances(self, locs: Sequence[int]) -> list[list[int]]:
        return dm_distances(locs)


class RulebookRules:
    """The printed rulebook's board and rules (:mod:`.rulebook`), played by the shared
    checking of a move (:mod:`.execute`) and search of a 7 (:mod:`.seven`); no F6."""

    def board(self, locs: Sequence[int]) -> Board:
        return RulebookBoard(locs)

    def gen_moves(self, b: Board, seat_c: int, card: str) -> list[Move]:
        return rulebook.gen_moves(b, seat_c, card)

    def has_move(self, b: Board, seat_c: int, card: str) -> Move | None:
        return rulebook.has_move(b, seat_c, card)

    def random_seven(self, b: Board, seat_c: int, rng: random.Random) -> Move | None:
        return seven.random_seven(b, seat_c, rng, False, rulebook.RB_SEVEN)

    def execute(self, b: Board, seat_c: int, move: Move) -> list[EventTuple]:
        return shared_execute.execute(b, seat_c, move, False, rulebook.RB_PLAY)

    def wins(self, b: Board, seat_c: int, events: list[EventTuple]) -> bool:
        # a pawn enters House without an event (no locking), so always look
        return b.team_won(seat_c)

    def pawn_distances(self, locs: Sequence[int]) -> list[list[int]]:
        return rulebook.pawn_distances(locs)


_DM = DmRules(True)
_DM_NO_F6 = DmRules(False)
_RULEBOOK = RulebookRules()


def rules_of(ruleset: Ruleset) -> MoveRules:
    """The move rules of a ruleset's board."""
    if ruleset.board == "rulebook":
        return _RULEBOOK
    return _DM if ruleset.finish_rule_2023 else _DM_NO_F6
