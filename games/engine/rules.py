"""The move rules: walking, landing, legal-move generation and applying moves.

Hot paths work on a mutable :class:`Board` of integers (location ids, counts
per location, colour per occupied location); nothing here builds strings
except the canonical move texts of generated moves.

Walk results are path indexes (>= 1) or negative error codes:
``-100 - lid`` = T4 (start field ``lid`` blocks), ``E_F1``, ``E_F5_FIRST``,
``E_F5_BOTH``. A walk of k+1 steps extends the walk of k steps, so once a
pawn fails with k steps it fails with every larger k.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .board import (
    BACK,
    CODES,
    FWD_CROSS,
    IS_GOAL,
    IS_RING,
    LOC_COLOUR,
    NLOC,
    PATH,
    PIDX,
    SEAT_INDEX,
    SEATS,
    goal_lid,
)
from .errors import IllegalMoveError, NotationError
from .notation import KIND_IN, KIND_STEPS, KIND_SWAP, Move, Step, make_move, parse_move
from .position import Position
from .ruleset import DM2023, Ruleset

E_F1: Final = -2
E_F5_FIRST: Final = -3
E_F5_BOTH: Final = -4

ENTER_CARDS: Final = frozenset(("8", "11", "13"))
FORWARD: Final = {
    "1": (1, 14),
    "2": (2,),
    "3": (3,),
    "5": (5,),
    "6": (6,),
    "8": (8,),
    "9": (9,),
    "10": (10,),
    "12": (12,),
    "13": (13,),
}
"""Forward step counts of the single-pawn cards (C2, C3, C5)."""

_OWNER0: Final = tuple(-1 if IS_RING[i] else LOC_COLOUR[i] for i in range(NLOC))
_STEP_TXT: Final = tuple(
    tuple(f"{CODES[lid]}+{n}" if n > 0 else f"{CODES[lid]}-{-n}" for n in range(-14, 15))
    for lid in range(NLOC)
)
_SWAP_TXT: Final = tuple(
    tuple(f"J: {CODES[a]}<>{CODES[b]}" for b in range(NLOC)) for a in range(NLOC)
)

EventTuple = tuple[str, int, int]
"""Internal event: (type, colour index, location id)."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened during a move: a ``hit`` (a pawn of ``colour``
    sent home from ``at``) or a ``lock`` (a pawn of ``colour`` locked on ``at``)."""

    type: str
    colour: str
    at: str

    def to_json(self) -> dict[str, str]:
        """``{"type", "colour", "at"}`` as in NOTATION.md."""
        return {"type": self.type, "colour": self.colour, "at": self.at}


def event_of(t: EventTuple) -> Event:
    """Public Event of an internal event tuple."""
    return Event(t[0], SEATS[t[1]], CODES[t[2]])


@dataclass(frozen=True, slots=True)
class Applied:
    """Result of :func:`apply_move`: the new position and what happened."""

    position: Position
    events: list[Event]


class Board:
    """Mutable integer board used by the generators, ``apply`` and replay."""

    __slots__ = ("cnt", "locs", "owner")

    def __init__(self, locs: Sequence[int]) -> None:
        self.locs = list(locs)
        cnt = [0] * NLOC
        owner = list(_OWNER0)
        for i, lid in enumerate(self.locs):
            cnt[lid] += 1
            owner[lid] = i >> 2
        self.cnt = cnt
        self.owner = owner

    def locked(self, c: int) -> int:
        """Locked pawns of colour c (F2)."""
        return locked_n(self.cnt, c)

    def active(self, seat_c: int) -> int:
        """The colour a seat moves: own, or the partner's once finished (S3)."""
        return seat_c if locked_n(self.cnt, seat_c) < 4 else (seat_c + 2) % 4

    def team_won(self, c: int) -> bool:
        """True if colour c and its partner have all 8 pawns locked (W1)."""
        cnt = self.cnt
        return locked_n(cnt, c) == 4 and locked_n(cnt, (c + 2) % 4) == 4

    def winner(self) -> str | None:
        """The winning team or None (W1)."""
        if self.team_won(0):
            return "YB"
        if self.team_won(1):
            return "RG"
        return None


def locked_n(cnt: list[int], c: int) -> int:
    """Locked pawns of colour c: occupied goal circles from M1 outward (F2)."""
    b = c * 20 + 16
    if not cnt[b]:
        return 0
    if not cnt[b + 1]:
        return 1
    if not cnt[b + 2]:
        return 2
    if not cnt[b + 3]:
        return 3
    return 4


def _finish(cnt: list[int], c: int, src: int, g: int, steps: int, moved: bool) -> int:
    """Walk ``steps`` inside the finish area from path index g (F1, F5)."""
    pm = PATH[c]
    d = 1
    while steps:
        ng = g + d
        if ng > 60 or (ng >= 57 and cnt[pm[ng]] and pm[ng] != src):
            if not moved:
                return E_F5_FIRST
            d = -d
            ng = g + d
            if ng > 60 or (ng >= 57 and cnt[pm[ng]] and pm[ng] != src):
                return E_F5_BOTH
        steps -= 1
        if ng == 56:
            if not steps:
                return 56
            t, crossed = BACK[c][56][steps]
            for s in crossed:
                if cnt[s]:
                    return -100 - s
            return t
        g = ng
        moved = True
    return g


def walk_forward(cnt: list[int], c: int, src: int, p: int, n: int) -> int:
    """Destination path index of a pawn of colour c on ``src`` (path p) moving n forward."""
    if p <= 56:
        for s in FWD_CROSS[c][p][n]:
            if cnt[s]:
                return -100 - s
        t = p + n
        if t <= 56:
            return t
        if cnt[PATH[c][57]]:
            return E_F1
        return _finish(cnt, c, src, 57, t - 57, True)
    return _finish(cnt, c, src, p, n, False)


def walk_back(cnt: list[int], c: int, p: int, n: int) -> int:
    """Destination path index moving n backward from path p (0..56), T4 checked."""
    t, crossed = BACK[c][p][n]
    for s in crossed:
        if cnt[s]:
            return -100 - s
    return t


def place(b: Board, i: int, c: int, dest: int, events: list[EventTuple] | None) -> int:
    """Put pawn i (colour c) on location ``dest`` applying T2 and F2.

    Returns the index of a pawn hit home, -2 if the mover itself was hit home,
    else -1 (used to undo).
    """
    locs, cnt, owner = b.locs, b.cnt, b.owner
    cnt[locs[i]] -= 1
    if IS_RING[dest]:
        n = cnt[dest]
        if n and owner[dest] != c:
            oc = owner[dest]
            if n == 1:
                j = oc * 4
                while locs[j] != dest:
                    j += 1
                h = oc * 20
                locs[j] = h
                cnt[h] += 1
                locs[i] = dest
                owner[dest] = c
                if events is not None:
                    events.append(("hit", oc, dest))
                return j
            h = c * 20
            locs[i] = h
            cnt[h] += 1
            if events is not None:
                events.append(("hit", c, dest))
            return -2
        locs[i] = dest
        cnt[dest] += 1
        owner[dest] = c
        return -1
    locs[i] = dest
    cnt[dest] += 1
    if events is not None and IS_GOAL[dest] and (dest % 20) - 15 <= locked_n(cnt, c):
        events.append(("lock", c, dest))
    return -1


def unplace(b: Board, i: int, c: int, src: int, dest: int, j: int) -> None:
    """Undo :func:`place` (pawn i came from ``src``; ``j`` its return value)."""
    locs, cnt, owner = b.locs, b.cnt, b.owner
    cnt[locs[i]] -= 1
    if j >= 0:
        oc = j >> 2
        cnt[oc * 20] -= 1
        locs[j] = dest
        cnt[dest] += 1
        owner[dest] = oc
    locs[i] = src
    cnt[src] += 1
    owner[src] = c


# ---------------------------------------------------------------------------
# generation


def gen_moves(b: Board, seat_c: int, card: str, f6: bool = True) -> list[Move]:
    """All legal moves of ``card`` for seat colour ``seat_c``, canonical order."""
    if card == "7":
        return _gen7(b, seat_c, f6)
    if card == "J":
        return _gen_swap(b)
    out: list[Move] = []
    cnt = b.cnt
    c = seat_c if locked_n(cnt, seat_c) < 4 else (seat_c + 2) % 4
    if card in ENTER_CARDS and cnt[c * 20]:
        out.append(make_move(card, KIND_IN, text=card + ": in"))
    if card == "11":
        return out
    lc = locked_n(cnt, c)
    target = 60 - lc
    prefix = card + ": "
    pidx = PIDX[c]
    base = c * 4
    locs = b.locs
    own = sorted({locs[base], locs[base + 1], locs[base + 2], locs[base + 3]})
    if card == "4":
        for lid in own:
            p = pidx[lid]
            if 0 <= p <= 56 and walk_back(cnt, c, p, 4) >= 0:
                out.append(
                    make_move(card, KIND_STEPS, ((lid, -4),), text=prefix + _STEP_TXT[lid][10])
                )
        return out
    ns = FORWARD[card]
    for lid in own:
        p = pidx[lid]
        if p < 0 or p > target:
            continue
        for n in ns:
            d = walk_forward(cnt, c, lid, p, n)
            if d < 0:
                break
            if d >= 57 and p >= 57 and f6 and d != target:
                continue
            out.append(
                make_move(card, KIND_STEPS, ((lid, n),), text=prefix + _STEP_TXT[lid][n + 14])
            )
    return out


def has_move(b: Board, seat_c: int, card: str, f6: bool = True) -> Move | None:
    """A legal move of ``card`` if there is one (first in canonical order), else None."""
    if card == "7":
        moves = _gen7(b, seat_c, f6, first_only=True)
    elif card == "J":
        moves = _gen_swap(b, first_only=True)
    else:
        moves = gen_moves(b, seat_c, card, f6)
    return moves[0] if moves else None


def _gen_swap(b: Board, first_only: bool = False) -> list[Move]:
    cnt = b.cnt
    singles = sorted({lid for lid in b.locs if IS_RING[lid] and cnt[lid] == 1})
    out: list[Move] = []
    for x, a in enumerate(singles):
        row = _SWAP_TXT[a]
        for bb in singles[x + 1 :]:
            out.append(make_move("J", KIND_SWAP, iswap=(a, bb), text=row[bb]))
            if first_only:
                return out
    return out


def _seven_candidates(b: Board, c: int) -> list[tuple[int, tuple[int, ...], int]]:
    """(location, unmoved pawn indexes there, path index) of movable pawns of colour c."""
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


def _gen7(
    b: Board,
    seat_c: int,
    f6: bool,
    first_only: bool = False,
    rng: random.Random | None = None,
) -> list[Move]:
    """Every split and order of a 7 (C7), in canonical order.

    With ``rng`` the search order is shuffled and only the first legal 7
    found is returned (a cheap random legal 7 for self-play).
    """
    c0 = b.active(seat_c)
    if rng is None and not first_only:
        fast = _gen7_memo(b, seat_c, c0, f6)
        if fast is not None:
            return fast
    out: list[Move] = []
    _seven_dfs(b, seat_c, c0, 7, (), "7: ", f6, first_only or rng is not None, out, rng)
    return out


Suffix = tuple[tuple[Step, ...], str]


def _gen7_memo(b: Board, seat_c: int, c: int, f6: bool) -> list[Move] | None:
    """All 7s by a memoised search over (steps left, unmoved pawns, goal circles).

    Why this is sound: while colour c moves, a part can only change the
    legality of later parts through c's goal circles (see
    :func:`_seven_dfs`), so the completions of a partial 7 depend only on
    the steps left, the unmoved pawns and c's goal circles. Different
    orders and splits of the same parts share one entry, which makes the
    search cost close to the size of its output. Returns None when the 7
    might lock the seat's last pawn and hand the rest to the partner (no own
    pawn is in the start circle): that rest depends on the whole board
    (hits), so :func:`_seven_dfs` plays it.
    """
    cnt = b.cnt
    partner = (seat_c + 2) % 4
    cands = tuple((lid, len(idxs), p) for lid, idxs, p in _seven_candidates(b, c))
    if c == seat_c and not cnt[c * 20] and locked_n(cnt, partner) < 4 and cands:
        # no own pawn in the start circle: this 7 might lock all of them
        return None
    memo: dict[tuple[object, ...], list[Suffix]] = {}
    path = PATH[c]
    txt = _STEP_TXT
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
                d = walk_forward(cnt, c, lid, p, k)
                if d < 0:
                    break
                if d >= 57 and p >= 57 and f6 and d != target:
                    continue
                step = (lid, k)
                if k == rem or d == target == 57:
                    # the last part, or c's fourth lock: the team has won (C7 Decision)
                    res.append(((step,), row[k + 14]))
                    continue
                if p >= 57:
                    cnt[lid] -= 1
                if d >= 57:
                    cnt[path[d]] += 1
                if n > 1:
                    child = (*cands[:x], (lid, n - 1, p), *cands[x + 1 :])
                else:
                    child = cands[:x] + cands[x + 1 :]
                sub = solve(rem - k, child, target - 1 if d == target else target)
                if d >= 57:
                    cnt[path[d]] -= 1
                if p >= 57:
                    cnt[lid] += 1
                if sub:
                    pre = row[k + 14] + " "
                    res += [((step, *steps), pre + text) for steps, text in sub]
        memo[key] = res
        return res

    new = _new_object
    out: list[Move] = []
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


def random_seven(b: Board, seat_c: int, rng: random.Random, f6: bool = True) -> Move | None:
    """A random legal 7 (not uniform over all splits), or None if there is none."""
    moves = _gen7(b, seat_c, f6, rng=rng)
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
    rng: random.Random | None = None,
) -> bool:
    """Depth-first search of the parts of a 7 played by colour c.

    Why it is cheap: while one colour moves, no part can change the
    legality of a later part except through that colour's goal circles
    (start fields cannot be hit or entered during a 7, landing on the track
    is always allowed, and a colour never hits its own pawns). So only the
    goal-circle counts are changed and restored; the full board is played
    out only when the seat's last pawn locks and the partner takes the rest
    (S3). Candidates in location order and part sizes ascending give the
    canonical order directly.
    """
    cnt = b.cnt
    partner = (seat_c + 2) % 4
    new = Move.__new__
    txt = _STEP_TXT
    path = PATH[c]

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
        cands: list[tuple[int, tuple[int, ...], int]],
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
                d = walk_forward(cnt, c, lid, p, k)
                if d < 0:
                    if rng is None:
                        break
                    continue
                if d >= 57 and p >= 57 and f6 and d != target:
                    continue
                st = txt[lid][k + 14]
                if k == rem:
                    emit((*pre, (lid, k)), pre_txt + st)
                    if first_only:
                        return True
                    continue
                steps = (*pre, (lid, k))
                if d == target == 57:
                    # c's fourth pawn locks: the team wins, or the partner takes the rest
                    if c != seat_c or locked_n(cnt, partner) == 4:
                        emit(steps, pre_txt + st)
                        stop = first_only
                    else:
                        stop = _seven_partner(
                            b, seat_c, rem - k, steps, pre_txt + st + " ", f6, first_only, out, rng
                        )
                else:
                    if p >= 57:
                        cnt[lid] -= 1
                    if d >= 57:
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
                    if d >= 57:
                        cnt[path[d]] -= 1
                    if p >= 57:
                        cnt[lid] += 1
                if stop:
                    return True
        return False

    return rec(rem, _seven_candidates(b, c), pre0, pre_txt0, 60 - locked_n(cnt, c))


def _seven_partner(
    b: Board,
    seat_c: int,
    rem: int,
    steps: tuple[Step, ...],
    pre_txt: str,
    f6: bool,
    first_only: bool,
    out: list[Move],
    rng: random.Random | None = None,
) -> bool:
    """The rest of a 7 on the partner's pawns after the seat's last pawn locked."""
    copy = Board(b.locs)
    moved = [False] * 16
    for lid, n in steps:
        _step(copy, seat_c, seat_c, lid, n, f6, moved, [], -1)
    return _seven_dfs(copy, seat_c, (seat_c + 2) % 4, rem, steps, pre_txt, f6, first_only, out, rng)


# ---------------------------------------------------------------------------
# applying one move (validation of that move only)


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


def _step(
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
    (lid, n), *more = steps
    if card == "4":
        if more or n != -4:
            raise IllegalMoveError.of("c4")
    elif more or n not in FORWARD[card]:
        key = "c3" if card == "1" else "c5" if card in ENTER_CARDS else "c2"
        raise IllegalMoveError.of(key, card=card)
    _step(b, seat_c, c, lid, n, f6, None, events, dests[0] if dests else -1)
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
        d = _step(b, seat_c, c, lid, n, f6, moved, events, dests[x] if dests else -1)
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
    b = Board(position.locs)
    if b.winner() is not None:
        return []
    return gen_moves(b, c, card, ruleset.finish_rule_2023)


def apply_move(
    position: Position, seat: str, move: Move | str, ruleset: Ruleset = DM2023
) -> Applied:
    """Play ``move`` for the player on ``seat``; the new position and events.

    Raises NotationError if ``move`` cannot be read and IllegalMoveError
    (with the RULES.md id) if the rules do not allow it.
    """
    c = _seat(seat)
    m = parse_move(move) if isinstance(move, str) else move
    b = Board(position.locs)
    won = b.winner()
    if won is not None:
        raise IllegalMoveError.of("w1", team=won)
    events = execute(b, c, m, ruleset.finish_rule_2023)
    return Applied(Position(b.locs, _checked=True), [event_of(e) for e in events])
