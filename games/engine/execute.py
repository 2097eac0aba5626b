"""Checking and playing one move on a board (validation of that move only).

:func:`execute` checks what every board shares (the card against the kind
of move, C7's parts and sum, the win in the middle of a 7) and leaves a
part, an entry and a swap to the board's :class:`MovePlay`, the methods of
its :class:`~.board_moves.BoardMoves`: dm2023's are :class:`DmMoves`
(:data:`DM_PLAY`); the printed rulebook's are in :mod:`.rulebook`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .board import CODES, IS_GOAL, IS_RING, NLOC, PATH, PIDX, goal_lid
from .board_moves import BoardMoves
from .boardstate import Board, EventTuple, locked_n, place
from .errors import IllegalMoveError
from .notation import KIND_IN, KIND_SWAP, Move
from .rulebook_board import RB_CODES
from .walk import E_F1, E_F5_FIRST, ENTER_CARDS, single_step, walk_back, walk_forward

StepFn = Callable[[Board, int, int, int, int, bool, list[bool] | None, list[EventTuple], int], int]
"""``(board, seat, colour, location, steps, f6, moved, events, dest_check)``: check and play
one part; returns the path index reached."""


@dataclass(frozen=True, slots=True)
class MovePlay:
    """How a board checks and plays the parts of a move."""

    step: StepFn
    enter: Callable[[Board, int, list[EventTuple]], None]
    """Bring a pawn of colour c into play (a pawn is in its Start)."""
    swap: Callable[[Board, int, int], None]
    """Check and play the swap of two locations (C9)."""


def execute(
    b: Board, seat_c: int, move: Move, f6: bool = True, play: MovePlay | None = None
) -> list[EventTuple]:
    """Check ``move`` for seat colour ``seat_c`` and play it on ``b``.

    Raises IllegalMoveError (or NotationError for a wrong ``>DEST``); the
    board may then be partly changed, so callers keep a copy to restore.
    ``play`` is the board's part of the rules (default dm2023's).
    """
    if play is None:
        play = DM_PLAY
    card = move.card
    kind = move.kind
    events: list[EventTuple] = []
    if card == "J" or kind == KIND_SWAP:
        if card != "J" or kind != KIND_SWAP or move.iswap is None:
            raise IllegalMoveError.of("c9_card")
        play.swap(b, *move.iswap)
        return events
    c = b.active(seat_c)
    if kind == KIND_IN:
        if card == "7":
            raise IllegalMoveError.of("c7_in")
        if card not in ENTER_CARDS:
            raise IllegalMoveError.of("c8_card")
        h = c * 20
        if not b.cnt[h]:
            raise IllegalMoveError.of("c8_none", at=RB_CODES[h])
        play.enter(b, c, events)
        return events
    steps = move.isteps
    dests = move.dests
    if card == "7":
        _seven(b, seat_c, c, move, f6, events, play.step)
        return events
    if card == "11":
        raise IllegalMoveError.of("c5_11")
    lid, n = single_step(card, steps)
    play.step(b, seat_c, c, lid, n, f6, None, events, dests[0] if dests else -1)
    return events


def _seven(
    b: Board,
    seat_c: int,
    c: int,
    move: Move,
    f6: bool,
    events: list[EventTuple],
    step: StepFn,
) -> None:
    steps = move.isteps
    dests = move.dests
    total = 0
    for _lid, n in steps:
        if n < 1:
            raise IllegalMoveError.of("c7_part")
        total += n
    if total > 7:
        raise IllegalMoveError.of("c7_sum", total=total)
    moved = [False] * 16
    partner = (seat_c + 2) % 4
    last = len(steps) - 1
    for x, (lid, n) in enumerate(steps):
        step(b, seat_c, c, lid, n, f6, moved, events, dests[x] if dests else -1)
        if locked_n(b.cnt, c) == 4:
            if b.team_won(seat_c):
                if x != last:
                    raise IllegalMoveError.of("w1", team="YB" if seat_c % 2 == 0 else "RG")
                return
            if c == seat_c:
                c = partner
    if total != 7:
        raise IllegalMoveError.of("c7_sum", total=total)


class DmMoves(BoardMoves):
    """The dm board's parts (RULES.md T2, T4, C8, C9, F1–F7): its walks over the
    precomputed tables of :mod:`.walk`, landing with :func:`.boardstate.place`."""

    codes = CODES
    pidx = PIDX
    path = PATH
    nloc = NLOC
    goal_depth = tuple((lid % 20) - 15 if IS_GOAL[lid] else 0 for lid in range(NLOC))
    back_from = 57
    back_refusal = "f7"

    def walk_forward(self, b: Board, c: int, lid: int, p: int, n: int) -> int:
        return walk_forward(b.cnt, c, lid, p, n)

    def walk_back(self, b: Board, c: int, p: int, n: int) -> int:
        return walk_back(b.cnt, c, p, n)

    def walk_error(self, code: int, c: int, lid: int, n: int) -> IllegalMoveError:
        if code <= -100:
            return IllegalMoveError.of("t4", at=CODES[-code - 100])
        if code == E_F1:
            return IllegalMoveError.of("f1", at=CODES[goal_lid(c, 4)])
        if code == E_F5_FIRST:
            return IllegalMoveError.of("f5_first", at=CODES[lid])
        return IllegalMoveError.of("f5_both", at=CODES[lid])

    def put(self, b: Board, i: int, c: int, dest: int, events: list[EventTuple]) -> None:
        place(b, i, c, dest, events)

    def put_entered(self, b: Board, i: int, c: int, dest: int, events: list[EventTuple]) -> None:
        place(b, i, c, dest, None)  # a start field is never hit (T2)

    def swap_pair_refusal(self, x: int, y: int) -> IllegalMoveError | None:
        for lid in (x, y):
            if not IS_RING[lid]:
                return IllegalMoveError.of("f7" if IS_GOAL[lid] else "c9_field", at=CODES[lid])
        return None

    def swap_field_refusal(self, b: Board, lid: int) -> IllegalMoveError | None:
        if b.cnt[lid] > 1:
            return IllegalMoveError.of("c9_protected", at=CODES[lid])
        return None


DM_MOVES: Final = DmMoves()
"""The dm board's moves (dm2023 and fr)."""
DM_PLAY: Final = MovePlay(step=DM_MOVES.step, enter=DM_MOVES.enter, swap=DM_MOVES.swap)
"""The dm board (RULES.md T2, C8, C9, F1–F6)."""
