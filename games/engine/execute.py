"""Checking and playing one move on a board (validation of that move only).

:func:`execute` checks what every board shares (the card against the kind
of move, C7's parts and sum, the win in the middle of a 7) and leaves a
part, an entry and a swap to the board's :class:`MovePlay`: dm2023's is
:data:`DM_PLAY`; the printed rulebook's is built in :mod:`.rulebook`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .board import CODES, IS_GOAL, IS_RING, PATH, PIDX, SEATS, goal_lid
from .boardstate import Board, EventTuple, locked_n, place
from .errors import IllegalMoveError, NotationError
from .notation import KIND_IN, KIND_SWAP, Move
from .rulebook_board import RB_CODES
from .walk import E_F1, E_F5_FIRST, ENTER_CARDS, single_step, walk_back, walk_forward

StepFn = Callable[[Board, int, int, int, int, bool, list[bool] | None, list[EventTuple], int], int]
"""``(board, seat, colour, location, steps, f6, moved, events, dest_check)``: check and play
one part; returns the path index reached."""


def _walk_error(code: int, c: int, src: int) -> IllegalMoveError:
    if code <= -100:
        return IllegalMoveError.of("t4", at=CODES[-code - 100])
    if code == E_F1:
        return IllegalMoveError.of("f1", at=CODES[goal_lid(c, 4)])
    if code == E_F5_FIRST:
        return IllegalMoveError.of("f5_first", at=CODES[src])
    return IllegalMoveError.of("f5_both", at=CODES[src])


def _pawn_at(b: Board, seat: int, c: int, lid: int, moved: list[bool] | None) -> int:
    """Index of a pawn of colour c on ``lid`` that may move (S3, C7, C8, F3)."""
    locs = b.locs
    if b.cnt[lid] == 0:
        raise IllegalMoveError.of("no_pawn", at=CODES[lid], seat=SEATS[seat])
    colour = b.owner[lid]
    if colour != c:
        raise IllegalMoveError.of("not_yours", at=CODES[lid], seat=SEATS[seat])
    if lid == c * 20:
        raise IllegalMoveError.of("c8_home", at=CODES[lid])
    if IS_GOAL[lid] and (lid % 20) - 15 <= locked_n(b.cnt, c):
        raise IllegalMoveError.of("f3", at=CODES[lid])
    twice = False
    for i in range(c * 4, c * 4 + 4):
        if locs[i] == lid:
            if moved is None or not moved[i]:
                return i
            twice = True
    assert twice
    raise IllegalMoveError.of("c7_twice", at=CODES[lid])


def step(
    b: Board,
    seat: int,
    c: int,
    lid: int,
    n: int,
    f6: bool,
    moved: list[bool] | None,
    events: list[EventTuple],
    dest_check: int,
) -> int:
    """Validate and play one step; returns the path index reached."""
    i = _pawn_at(b, seat, c, lid, moved)
    p = PIDX[c][lid]
    cnt = b.cnt
    if n < 0:
        if p > 56:
            raise IllegalMoveError.of("f7", at=CODES[lid])
        d = walk_back(cnt, c, p, -n)
    else:
        d = walk_forward(cnt, c, lid, p, n)
    if d < 0:
        raise _walk_error(d, c, lid)
    target = 60 - locked_n(cnt, c)
    dest = PATH[c][d]
    if d >= 57 and p >= 57 and f6 and d != target:
        raise IllegalMoveError.of("f6", at=CODES[lid], to=CODES[dest])
    if dest_check >= 0 and dest_check != dest:
        raise NotationError.of("dest", got=CODES[dest], want=CODES[dest_check])
    place(b, i, c, dest, events)
    if moved is not None:
        moved[i] = True
    return d


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


def _enter(b: Board, c: int, events: list[EventTuple]) -> None:
    h = c * 20
    i = b.locs.index(h, c * 4)
    place(b, i, c, h + 1, None)


def _swap(b: Board, x: int, y: int) -> None:
    for lid in (x, y):
        if not IS_RING[lid]:
            key = "f7" if IS_GOAL[lid] else "c9_field"
            raise IllegalMoveError.of(key, at=CODES[lid])
    if x == y:
        raise IllegalMoveError.of("c9_same")
    cnt, locs, owner = b.cnt, b.locs, b.owner
    for lid in (x, y):
        if not cnt[lid]:
            raise IllegalMoveError.of("c9_empty", at=CODES[lid])
        if cnt[lid] > 1:
            raise IllegalMoveError.of("c9_protected", at=CODES[lid])
    i = locs.index(x)
    j = locs.index(y)
    locs[i], locs[j] = y, x
    owner[x], owner[y] = owner[y], owner[x]


DM_PLAY = MovePlay(step=step, enter=_enter, swap=_swap)
"""The dm board (RULES.md T2, C8, C9, F1–F6)."""
