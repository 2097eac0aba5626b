"""Move rules of the printed rulebook (docs/rulesets/rulebook.md).

Every space counts (B2), the space next to X's Start is own 0 / own 15 for X
and 0/15 for the others (B6, T7), a pawn on own 0 blocks every other pawn
from passing (T4), House 16–19 has no passing, no bouncing and no locking
(F1–F5). The board is the dm2023 :class:`~.boardstate.Board` sized for the
rulebook's location ids (:mod:`.rulebook_board`); moves are the same
:class:`~.notation.Move` objects, so game records read alike.

What the rulebook shares with dm2023 is dm2023's code: checking a move's
card, kind and 7 (:func:`.execute.execute`) and searching the 7
(:mod:`.seven`). This module gives them the rulebook's walk, landing,
entering and swapping (:data:`RB_PLAY`, :data:`RB_SEVEN`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from . import execute as shared_execute
from . import seven
from .board import home_lid, start_lid
from .board_moves import BoardMoves
from .boardstate import Board, EventTuple
from .errors import IllegalMoveError
from .notation import KIND_IN, KIND_STEPS, KIND_SWAP, Move, make_move
from .rulebook_board import (
    RB_BACK,
    RB_CODES,
    RB_CROSS,
    RB_HOUSE,
    RB_IS_HOUSE,
    RB_IS_START_SPACE,
    RB_IS_TRACK,
    RB_LAST,
    RB_LOC_COLOUR,
    RB_NLOC,
    RB_PATH,
    RB_PIDX,
    X15_LID,
    location_order,
)
from .walk import ENTER_CARDS, FORWARD, STEP_TXT

E_BLOCK_BASE: Final = -100
"""``E_BLOCK_BASE - lid``: the own-0 pawn on ``lid`` blocks the way (T4)."""
E_HOUSE: Final = -2
"""F1: the count would pass or land on a House pawn, or go beyond 19."""


class RulebookBoard(Board):
    """The integer board with the rulebook's 84 location ids; ``XS`` may hold any colour."""

    __slots__ = ()

    def __init__(self, locs: Sequence[int]) -> None:
        self.locs = list(locs)
        cnt = [0] * RB_NLOC
        owner = [-1] * RB_NLOC
        for i, lid in enumerate(self.locs):
            cnt[lid] += 1
            owner[lid] = i >> 2
        self.cnt = cnt
        self.owner = owner

    def copy(self) -> RulebookBoard:
        """An independent copy."""
        new = RulebookBoard.__new__(RulebookBoard)
        new.locs = self.locs[:]
        new.cnt = self.cnt[:]
        new.owner = self.owner[:]
        return new


def walk_forward(b: Board, c: int, src: int, p: int, n: int) -> int:
    """Path index reached by colour c's pawn on ``src`` (path index p) moving n forward.

    Returns a path index or an error code (:data:`E_HOUSE`, ``E_BLOCK_BASE - lid``).
    """
    cnt = b.cnt
    owner = b.owner
    t = p + n
    if t > RB_LAST:
        return E_HOUSE
    for s in RB_CROSS[c][p][n]:
        if cnt[s] and owner[s] == RB_LOC_COLOUR[s]:
            return E_BLOCK_BASE - s
    if t >= RB_HOUSE:
        path = RB_PATH[c]
        for q in range(max(p + 1, RB_HOUSE), t + 1):
            if cnt[path[q]]:
                return E_HOUSE
    return t


def walk_back(b: Board, c: int, p: int) -> int:
    """Path index reached moving 4 back from path index p (not in House), or
    ``E_BLOCK_BASE - lid`` (T4)."""
    cnt = b.cnt
    owner = b.owner
    t, crossed = RB_BACK[c][p]
    for s in crossed:
        if cnt[s] and owner[s] == RB_LOC_COLOUR[s]:
            return E_BLOCK_BASE - s
    return t


def _send_home(b: Board, j: int) -> None:
    oc = j >> 2
    b.cnt[b.locs[j]] -= 1
    h = home_lid(oc)
    b.locs[j] = h
    b.cnt[h] += 1


def _put(b: Board, i: int, c: int, dest: int) -> None:
    b.locs[i] = dest
    b.cnt[dest] += 1
    b.owner[dest] = c


def _pawn_on(b: Board, lid: int) -> int:
    c = b.owner[lid]
    for j in range(c * 4, c * 4 + 4):
        if b.locs[j] == lid:
            return j
    raise AssertionError(lid)  # pragma: no cover - the counts say a pawn is there


def _meet(b: Board, i: int, c: int, dest: int, events: list[EventTuple]) -> bool:
    """T2 on ``dest``: hit a single pawn of another colour; False if the mover is hit home."""
    n = b.cnt[dest]
    if n and b.owner[dest] != c:
        if n == 1:
            j = _pawn_on(b, dest)
            events.append(("hit", j >> 2, dest))
            _send_home(b, j)
            return True
        b.locs[i] = home_lid(c)
        b.cnt[home_lid(c)] += 1
        events.append(("hit", c, dest))
        return False
    return True


def land(b: Board, i: int, c: int, dest: int, events: list[EventTuple]) -> None:
    """Put pawn i of colour c (already lifted) on ``dest`` with T2 and T7."""
    if RB_IS_HOUSE[dest]:
        _put(b, i, c, dest)
        return
    if dest >= X15_LID:
        # own 15: pawns of another colour on 0/15 meet it as on any space (T7)
        s = start_lid(c)
        if b.cnt[s] and b.owner[s] != c and not _meet(b, i, c, s, events):
            return
        _put(b, i, c, dest)
        return
    if RB_IS_START_SPACE[dest] and RB_LOC_COLOUR[dest] != c:
        x = RB_LOC_COLOUR[dest]
        x15 = X15_LID + x
        if b.cnt[x15] == 1:
            j = _pawn_on(b, x15)
            events.append(("hit", x, x15))
            _send_home(b, j)
        if (b.cnt[dest] and b.owner[dest] == x) or b.cnt[x15] >= 2:
            b.locs[i] = home_lid(c)
            b.cnt[home_lid(c)] += 1
            events.append(("hit", c, dest))
            return
    if _meet(b, i, c, dest, events):
        _put(b, i, c, dest)


def _lift(b: Board, i: int) -> int:
    src = b.locs[i]
    b.cnt[src] -= 1
    return src


def _own_lids(b: Board, c: int) -> list[int]:
    lids = {lid for lid in b.locs[c * 4 : c * 4 + 4] if RB_PIDX[c][lid] >= 0}
    return sorted(lids, key=location_order)


def _can_enter(b: Board, c: int) -> bool:
    s = start_lid(c)
    return b.cnt[home_lid(c)] > 0 and not (b.cnt[s] >= 2 and b.owner[s] != c)


def _swappable(b: Board) -> list[int]:
    out = []
    for lid in sorted(set(b.locs)):
        if not RB_IS_TRACK[lid] or b.cnt[lid] != 1:
            continue
        if RB_IS_START_SPACE[lid] and b.owner[lid] == RB_LOC_COLOUR[lid]:
            continue  # a pawn on its own 0 is safe (T6)
        out.append(lid)
    return out


def _swap_ok(b: Board, x: int, y: int) -> bool:
    """C9 Decision: a pawn is never swapped onto its own 0."""
    for a, other in ((x, y), (y, x)):
        if RB_IS_START_SPACE[a] and b.owner[other] == RB_LOC_COLOUR[a]:
            return False
    return True


def gen_moves(b: Board, seat_c: int, card: str, first_only: bool = False) -> list[Move]:
    """Every legal move of ``card`` for seat colour ``seat_c``, canonical order."""
    if card == "7":
        return seven.gen_seven(b, seat_c, False, first_only, None, RB_SEVEN)
    if card == "J":
        singles = _swappable(b)
        out: list[Move] = []
        for x, a in enumerate(singles):
            for y in singles[x + 1 :]:
                if _swap_ok(b, a, y):
                    out.append(
                        make_move(
                            "J", KIND_SWAP, iswap=(a, y), text=f"J: {RB_CODES[a]}<>{RB_CODES[y]}"
                        )
                    )
                    if first_only:
                        return out
        return out
    c = b.active(seat_c)
    out = []
    if card in ENTER_CARDS and _can_enter(b, c):
        out.append(make_move(card, KIND_IN, text=card + ": in"))
        if first_only:
            return out
    if card == "11":
        return out
    prefix = card + ": "
    pidx = RB_PIDX[c]
    if card == "4":
        for lid in _own_lids(b, c):
            p = pidx[lid]
            if p < RB_HOUSE and walk_back(b, c, p) >= 0:
                out.append(
                    make_move(card, KIND_STEPS, ((lid, -4),), text=prefix + STEP_TXT[lid][10])
                )
                if first_only:
                    return out
        return out
    ns = FORWARD[card]
    for lid in _own_lids(b, c):
        p = pidx[lid]
        for n in ns:
            if walk_forward(b, c, lid, p, n) >= 0:
                out.append(
                    make_move(card, KIND_STEPS, ((lid, n),), text=prefix + STEP_TXT[lid][n + 14])
                )
                if first_only:
                    return out
    return out


def has_move(b: Board, seat_c: int, card: str) -> Move | None:
    """The first legal move of ``card`` in canonical order, or None."""
    moves = gen_moves(b, seat_c, card, first_only=True)
    return moves[0] if moves else None


def _candidates(b: Board, c: int) -> list[seven.Candidate]:
    pidx = RB_PIDX[c]
    groups: dict[int, tuple[int, ...]] = {}
    for i in range(c * 4, c * 4 + 4):
        lid = b.locs[i]
        if pidx[lid] >= 0:
            groups[lid] = (*groups.get(lid, ()), i)
    return [(lid, groups[lid], pidx[lid]) for lid in sorted(groups, key=location_order)]


def _may_hand_off(b: Board, seat_c: int, c: int, cands: list[seven.Candidate]) -> bool:
    # the fourth pawn can reach House only if no pawn is in Start and all four need
    # 7 steps or fewer
    if c != seat_c or b.cnt[home_lid(c)]:
        return False
    pidx = RB_PIDX[c]
    return sum(max(0, RB_HOUSE - pidx[lid]) for lid in b.locs[c * 4 : c * 4 + 4]) <= 7


def _board(b: Board) -> Board:
    return b


class RulebookMoves(BoardMoves):
    """The printed rulebook's parts: its walk (T4, no passing in House), landing on
    0/15 (T7), entering (C8) and swapping (C9); no goal circles to lock, no F6."""

    codes = RB_CODES
    pidx = RB_PIDX
    path = RB_PATH
    nloc = RB_NLOC
    goal_depth = (0,) * RB_NLOC
    back_from = RB_HOUSE
    back_refusal = "rb_f7"

    def walk_forward(self, b: Board, c: int, lid: int, p: int, n: int) -> int:
        return walk_forward(b, c, lid, p, n)

    def walk_back(self, b: Board, c: int, p: int, n: int) -> int:
        return walk_back(b, c, p)  # a 4 is the only card that walks back (C4)

    def walk_error(self, code: int, c: int, lid: int, n: int) -> IllegalMoveError:
        if code <= E_BLOCK_BASE:
            return IllegalMoveError.of("rb_t4", at=RB_CODES[E_BLOCK_BASE - code])
        return IllegalMoveError.of("rb_f1", at=RB_CODES[lid], n=n)

    def put(self, b: Board, i: int, c: int, dest: int, events: list[EventTuple]) -> None:
        _lift(b, i)
        land(b, i, c, dest, events)

    def enter_refusal(self, b: Board, c: int) -> IllegalMoveError | None:
        if not _can_enter(b, c):
            return IllegalMoveError.of("rb_c8", at=RB_CODES[start_lid(c)])
        return None

    def swap_field_refusal(self, b: Board, lid: int) -> IllegalMoveError | None:
        if lid not in _swappable(b):
            return IllegalMoveError.of("rb_c9", at=RB_CODES[lid])
        return None

    def swap_result_refusal(self, b: Board, x: int, y: int) -> IllegalMoveError | None:
        return None if _swap_ok(b, x, y) else IllegalMoveError.of("rb_c9_own0")


RB_MOVES: Final = RulebookMoves()
"""The rulebook board's moves."""
RB_PLAY: Final = shared_execute.MovePlay(
    step=RB_MOVES.step, enter=RB_MOVES.enter, swap=RB_MOVES.swap
)
"""The rulebook's parts of checking a move, for :func:`.execute.execute`."""

RB_SEVEN: Final = seven.SevenBoard(
    walk=walk_forward,
    context=_board,
    paths=RB_PATH,
    goal_from=RB_HOUSE,
    candidates=_candidates,
    may_hand_off=_may_hand_off,
    step=RB_MOVES.step,
    board=RulebookBoard,
)
"""The rulebook's board for the search of a 7 (:mod:`.seven`)."""


def pawn_distances(locs: Sequence[int]) -> list[list[int]]:
    """Steps each pawn still needs to reach House (W3 Decision): House 0, own 15 1,
    own 0 61, Start 62."""
    out: list[list[int]] = []
    for c in range(4):
        row = []
        for lid in sorted(locs[4 * c : 4 * c + 4], key=location_order):
            p = RB_PIDX[c][lid]
            row.append(62 if p == -1 else 0 if p >= RB_HOUSE else RB_HOUSE - p)
        out.append(row)
    return out
