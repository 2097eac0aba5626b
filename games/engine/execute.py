"""Checking and playing one move on a board (validation of that move only)."""

from __future__ import annotations

from .board import CODES, IS_GOAL, IS_RING, PATH, PIDX, SEATS, goal_lid
from .boardstate import Board, EventTuple, locked_n, place
from .errors import IllegalMoveError, NotationError
from .notation import KIND_IN, KIND_SWAP, Move
from .walk import E_F1, E_F5_FIRST, ENTER_CARDS, single_step, walk_back, walk_forward


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


def execute(b: Board, seat_c: int, move: Move, f6: bool = True) -> list[EventTuple]:
    """Check ``move`` for seat colour ``seat_c`` and play it on ``b``.

    Raises IllegalMoveError (or NotationError for a wrong ``>DEST``); the
    board may then be partly changed, so callers keep a copy to restore.
    """
    card = move.card
    kind = move.kind
    events: list[EventTuple] = []
    if card == "J" or kind == KIND_SWAP:
        if card != "J" or kind != KIND_SWAP or move.iswap is None:
            raise IllegalMoveError.of("c9_card")
        _swap(b, *move.iswap)
        return events
    c = b.active(seat_c)
    if kind == KIND_IN:
        if card == "7":
            raise IllegalMoveError.of("c7_in")
        if card not in ENTER_CARDS:
            raise IllegalMoveError.of("c8_card")
        h = c * 20
        if not b.cnt[h]:
            raise IllegalMoveError.of("c8_none", at=CODES[h])
        i = b.locs.index(h, c * 4)
        place(b, i, c, h + 1, None)
        return events
    steps = move.isteps
    dests = move.dests
    if card == "7":
        _seven(b, seat_c, c, move, f6, events)
        return events
    if card == "11":
        raise IllegalMoveError.of("c5_11")
    lid, n = single_step(card, steps)
    step(b, seat_c, c, lid, n, f6, None, events, dests[0] if dests else -1)
    return events


def _seven(b: Board, seat_c: int, c: int, move: Move, f6: bool, events: list[EventTuple]) -> None:
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
        d = step(b, seat_c, c, lid, n, f6, moved, events, dests[x] if dests else -1)
        if d >= 57 and locked_n(b.cnt, c) == 4:
            if b.team_won(seat_c):
                if x != last:
                    raise IllegalMoveError.of("w1", team="YB" if seat_c % 2 == 0 else "RG")
                return
            if c == seat_c:
                c = partner
    if total != 7:
        raise IllegalMoveError.of("c7_sum", total=total)


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
