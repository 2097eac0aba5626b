"""The 7 (C7): every split and order of seven forward steps, or one random split.

One search for every board: a board plugs in through :class:`SevenBoard`
(its forward walk, its candidates, when the rest may pass to the partner,
and how a part is played). dm2023's board is :data:`DM_SEVEN`; the printed
rulebook's is built in :mod:`.rulebook`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .board import PATH, PIDX
from .boardstate import Board, EventTuple, locked_n
from .execute import DM_MOVES, StepFn
from .notation import KIND_STEPS, Move, Step
from .walk import STEP_TXT, walk_forward

Candidate = tuple[int, tuple[int, ...], int]
"""(location, unmoved pawn indexes there, path index) of a pawn group that may move."""


@dataclass(frozen=True, slots=True)
class SevenBoard:
    """What the search of a 7 needs from a board."""

    walk: Callable[[Any, int, int, int, int], int]
    """Forward walk ``(context, colour, location, path index, steps)``: path index or < 0."""
    context: Callable[[Board], Any]
    """The walk's first argument for a board (its counts, or the board itself)."""
    paths: tuple[tuple[int, ...], ...]
    """paths[c][p]: location of path index p for colour c."""
    goal_from: int
    """First path index of the finish area (goal circles, House)."""
    candidates: Callable[[Board, int], list[Candidate]]
    """Colour c's pawns that may move, in location order."""
    may_hand_off: Callable[[Board, int, int, list[Candidate]], bool]
    """``(board, seat colour, moving colour, candidates)``: True when this 7 might finish
    the seat's pawns and pass the rest to the partner."""
    step: StepFn
    """Check and play one part (used when the rest passes to the partner)."""
    board: Callable[[Sequence[int]], Board]
    """A new board of a position."""


def _dm_candidates(b: Board, c: int) -> list[Candidate]:
    locs = b.locs
    lc = locked_n(b.cnt, c)
    pidx = PIDX[c]
    groups: dict[int, tuple[int, ...]] = {}
    for i in range(c * 4, c * 4 + 4):
        lid = locs[i]
        p = pidx[lid]
        if p < 0 or p > 60 - lc:
            continue
        groups[lid] = (*groups.get(lid, ()), i)
    return [(lid, groups[lid], pidx[lid]) for lid in sorted(groups)]


def _dm_may_hand_off(b: Board, seat_c: int, c: int, cands: list[Candidate]) -> bool:
    # no own pawn in the start circle: this 7 might lock all of them
    cnt = b.cnt
    return bool(c == seat_c and not cnt[c * 20] and locked_n(cnt, (seat_c + 2) % 4) < 4 and cands)


def _counts(b: Board) -> list[int]:
    return b.cnt


DM_SEVEN = SevenBoard(
    walk=walk_forward,
    context=_counts,
    paths=PATH,
    goal_from=57,
    candidates=_dm_candidates,
    may_hand_off=_dm_may_hand_off,
    step=DM_MOVES.step,
    board=Board,
)
"""The dm board (RULES.md B1–F6)."""


def gen_seven(
    b: Board,
    seat_c: int,
    f6: bool,
    first_only: bool = False,
    rng: random.Random | None = None,
    board: SevenBoard = DM_SEVEN,
) -> list[Move]:
    """Every split and order of a 7 (C7), in canonical order.

    With ``rng`` the search order is shuffled and only the first legal 7
    found is returned (a cheap random legal 7 for self-play).
    """
    c0 = b.active(seat_c)
    if rng is None and not first_only:
        fast = _gen7_memo(b, seat_c, c0, f6, board)
        if fast is not None:
            return fast
    out: list[Move] = []
    _seven_dfs(b, seat_c, c0, 7, (), "7: ", f6, first_only or rng is not None, out, rng, board)
    return out


Suffix = tuple[tuple[Step, ...], str]


def _gen7_memo(b: Board, seat_c: int, c: int, f6: bool, board: SevenBoard) -> list[Move] | None:
    """All 7s by a memoised search over (steps left, unmoved pawns, goal circles).

    Why this is sound: while colour c moves, a part can only change the
    legality of later parts through c's finish area (see
    :func:`_seven_dfs`), so the completions of a partial 7 depend only on
    the steps left, the unmoved pawns and c's finish spaces. Different
    orders and splits of the same parts share one entry, which makes the
    search cost close to the size of its output. Returns None when the 7
    might finish the seat's last pawn and hand the rest to the partner:
    that rest depends on the whole board (hits), so :func:`_seven_dfs`
    plays it.
    """
    start = board.candidates(b, c)
    if board.may_hand_off(b, seat_c, c, start):
        return None
    cnt = b.cnt
    memo: dict[tuple[object, ...], list[Suffix]] = {}
    path = board.paths[c]
    walk = board.walk
    ctx = board.context(b)
    goal = board.goal_from
    txt = STEP_TXT
    g = c * 20 + 16

    def solve(rem: int, cands: tuple[tuple[int, int, int], ...], target: int) -> list[Suffix]:
        key = (rem, cands, cnt[g], cnt[g + 1], cnt[g + 2], cnt[g + 3])
        known = memo.get(key)
        if known is not None:
            return known
        res: list[Suffix] = []
        for x, (lid, n, p) in enumerate(cands):
            row = txt[lid]
            for k in range(1, rem + 1):
                d = walk(ctx, c, lid, p, k)
                if d < 0:
                    break
                if d >= goal and p >= goal and f6 and d != target:
                    continue
                step = (lid, k)
                if k == rem or (
                    d >= goal > p and cnt[g] + cnt[g + 1] + cnt[g + 2] + cnt[g + 3] == 3
                ):
                    # the last part, or c's fourth pawn home: the team has won (C7 Decision)
                    res.append(((step,), row[k + 14]))
                    continue
                if p >= goal:
                    cnt[lid] -= 1
                if d >= goal:
                    cnt[path[d]] += 1
                if n > 1:
                    child = (*cands[:x], (lid, n - 1, p), *cands[x + 1 :])
                else:
                    child = cands[:x] + cands[x + 1 :]
                sub = solve(rem - k, child, target - 1 if d == target else target)
                if d >= goal:
                    cnt[path[d]] -= 1
                if p >= goal:
                    cnt[lid] += 1
                if sub:
                    pre = row[k + 14] + " "
                    res += [((step, *steps), pre + text) for steps, text in sub]
        memo[key] = res
        return res

    new = _new_object
    out: list[Move] = []
    cands = tuple((lid, len(idxs), p) for lid, idxs, p in start)
    for steps, text in solve(7, cands, 60 - locked_n(cnt, c)):
        m = new(Move)
        m.card = "7"
        m.kind = KIND_STEPS
        m.isteps = steps
        m.iswap = None
        m.dests = None
        m._text = "7: " + text
        out.append(m)
    return out


_new_object = object.__new__


def random_seven(
    b: Board, seat_c: int, rng: random.Random, f6: bool = True, board: SevenBoard = DM_SEVEN
) -> Move | None:
    """A random legal 7 (not uniform over all splits), or None if there is none."""
    moves = gen_seven(b, seat_c, f6, rng=rng, board=board)
    return moves[0] if moves else None


def _seven_dfs(
    b: Board,
    seat_c: int,
    c: int,
    rem: int,
    pre0: tuple[Step, ...],
    pre_txt0: str,
    f6: bool,
    first_only: bool,
    out: list[Move],
    rng: random.Random | None,
    board: SevenBoard,
) -> bool:
    """Depth-first search of the parts of a 7 played by colour c.

    Why it is cheap: while one colour moves, no part can change the
    legality of a later part except through that colour's finish area
    (the spaces that block cannot be hit or entered during a 7, landing on
    the track is always allowed, and a colour never hits its own pawns). So
    only the finish-area counts are changed and restored; the full board is
    played out only when the seat's last pawn finishes and the partner takes
    the rest (S3). Candidates in location order and part sizes ascending
    give the canonical order directly.
    """
    cnt = b.cnt
    partner = (seat_c + 2) % 4
    new = Move.__new__
    txt = STEP_TXT
    path = board.paths[c]
    walk = board.walk
    ctx = board.context(b)
    goal = board.goal_from
    g = c * 20 + 16

    def emit(steps: tuple[Step, ...], text: str) -> None:
        m = new(Move)
        m.card = "7"
        m.kind = KIND_STEPS
        m.isteps = steps
        m.iswap = None
        m.dests = None
        m._text = text
        out.append(m)

    def rec(
        rem: int,
        cands: list[Candidate],
        pre: tuple[Step, ...],
        pre_txt: str,
        target: int,
    ) -> bool:
        order = list(enumerate(cands))
        ks = list(range(1, rem + 1))
        if rng is not None:
            rng.shuffle(order)
        for x, (lid, idxs, p) in order:
            if rng is not None:
                rng.shuffle(ks)
            for k in ks:
                d = walk(ctx, c, lid, p, k)
                if d < 0:
                    if rng is None:
                        break
                    continue
                if d >= goal and p >= goal and f6 and d != target:
                    continue
                st = txt[lid][k + 14]
                if k == rem:
                    emit((*pre, (lid, k)), pre_txt + st)
                    if first_only:
                        return True
                    continue
                steps = (*pre, (lid, k))
                if d >= goal > p and cnt[g] + cnt[g + 1] + cnt[g + 2] + cnt[g + 3] == 3:
                    # c's fourth pawn home: the team wins, or the partner takes the rest
                    if c != seat_c or locked_n(cnt, partner) == 4:
                        emit(steps, pre_txt + st)
                        stop = first_only
                    else:
                        stop = _seven_partner(
                            b, seat_c, rem - k, steps, pre_txt + st + " ", f6, first_only, out,
                            rng, board,
                        )  # fmt: skip
                else:
                    if p >= goal:
                        cnt[lid] -= 1
                    if d >= goal:
                        cnt[path[d]] += 1
                    child = cands[:x]
                    if len(idxs) > 1:
                        child.append((lid, idxs[1:], p))
                    child += cands[x + 1 :]
                    stop = rec(
                        rem - k,
                        child,
                        steps,
                        pre_txt + st + " ",
                        target - 1 if d == target else target,
                    )
                    if d >= goal:
                        cnt[path[d]] -= 1
                    if p >= goal:
                        cnt[lid] += 1
                if stop:
                    return True
        return False

    return rec(rem, board.candidates(b, c), pre0, pre_txt0, 60 - locked_n(cnt, c))


def _seven_partner(
    b: Board,
    seat_c: int,
    rem: int,
    steps: tuple[Step, ...],
    pre_txt: str,
    f6: bool,
    first_only: bool,
    out: list[Move],
    rng: random.Random | None,
    board: SevenBoard,
) -> bool:
    """The rest of a 7 on the partner's pawns after the seat's last pawn finished."""
    copy = board.board(b.locs)
    moved = [False] * 16
    events: list[EventTuple] = []
    for lid, n in steps:
        board.step(copy, seat_c, seat_c, lid, n, f6, moved, events, -1)
    partner = (seat_c + 2) % 4
    return _seven_dfs(copy, seat_c, partner, rem, steps, pre_txt, f6, first_only, out, rng, board)
