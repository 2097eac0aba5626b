"""Move rules of the printed rulebook (docs/rulesets/rulebook.md).

Every space counts (B2), the space next to X's Start is own 0 / own 15 for X
and 0/15 for the others (B6, T7), a pawn on own 0 blocks every other pawn
from passing (T4), House 16–19 has no passing, no bouncing and no locking
(F1–F5). The board is the dm2023 :class:`~.boardstate.Board` sized for the
rulebook's location ids (:mod:`.rulebook_board`); moves are the same
:class:`~.notation.Move` objects, so game records read alike.

Plain rather than tuned code: the 7 is searched by playing each part on a
copy of the board.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from .board import SEATS, home_lid, start_lid
from .boardstate import Board, EventTuple, locked_n
from .errors import IllegalMoveError, NotationError
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
from .walk import ENTER_CARDS, FORWARD, single_step

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


def walk(b: Board, c: int, p: int, n: int) -> int:
    """Destination path index of colour c's pawn on path index p moving n (-4: back).

    Returns a path index or an error code (:data:`E_HOUSE`, ``E_BLOCK_BASE - lid``).
    """
    cnt = b.cnt
    owner = b.owner
    if n < 0:
        t, crossed = RB_BACK[c][p]
        for s in crossed:
            if cnt[s] and owner[s] == RB_LOC_COLOUR[s]:
                return E_BLOCK_BASE - s
        return t
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


def _active(b: Board, seat_c: int) -> int:
    return seat_c if locked_n(b.cnt, seat_c) < 4 else (seat_c + 2) % 4


def _txt(lid: int, n: int) -> str:
    return f"{RB_CODES[lid]}{'+' if n > 0 else '-'}{abs(n)}"


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
        return _gen_seven(b, seat_c, first_only, None)
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
    c = _active(b, seat_c)
    out = []
    if card in ENTER_CARDS and _can_enter(b, c):
        out.append(make_move(card, KIND_IN, text=card + ": in"))
    if card == "11":
        return out
    ns = (-4,) if card == "4" else FORWARD[card]
    for lid in _own_lids(b, c):
        p = RB_PIDX[c][lid]
        if card == "4" and p >= RB_HOUSE:
            continue
        for n in ns:
            if walk(b, c, p, n) >= 0:
                out.append(make_move(card, KIND_STEPS, ((lid, n),), text=f"{card}: {_txt(lid, n)}"))
    return out


def has_move(b: Board, seat_c: int, card: str) -> Move | None:
    """The first legal move of ``card`` in canonical order, or None."""
    moves = gen_moves(b, seat_c, card, first_only=True)
    return moves[0] if moves else None


def _seven_memo(b: Board, seat_c: int) -> list[Move] | None:
    """All 7s by a memoised search over (steps left, unmoved pawns, House spaces).

    Sound while the 7 stays on one colour: a part changes later parts'
    legality only through that colour's House spaces (own pawns never block
    or hit each other, other colours' own-0 pawns are safe, and a hit or a
    mover sent home only changes who stands where, not whether a later part
    can land). Returns None when the seat's fourth pawn might reach House
    and hand the rest to the partner (no own pawn in Start and all four
    within 7 steps of House): that rest depends on the whole board, so the
    plain search plays it.
    """
    c = _active(b, seat_c)
    cnt = b.cnt
    path = RB_PATH[c]
    pidx = RB_PIDX[c]
    if c == seat_c and not cnt[home_lid(c)]:
        # the fourth pawn can reach House only if all four need 7 steps or fewer
        need = sum(max(0, RB_HOUSE - pidx[lid]) for lid in b.locs[c * 4 : c * 4 + 4])
        if need <= 7:
            return None
    house = path[RB_HOUSE:]
    groups: dict[int, int] = {}
    for lid in b.locs[c * 4 : c * 4 + 4]:
        if pidx[lid] >= 0:
            groups[lid] = groups.get(lid, 0) + 1
    start = tuple((lid, groups[lid], pidx[lid]) for lid in sorted(groups, key=location_order))
    finishing = c != seat_c  # the partner's fourth pawn in House wins (W1)
    Suffix = tuple[tuple[tuple[int, int], ...], str]
    memo: dict[tuple[object, ...], list[Suffix]] = {}

    def solve(rem: int, cands: tuple[tuple[int, int, int], ...]) -> list[Suffix]:
        key = (rem, cands, cnt[house[0]], cnt[house[1]], cnt[house[2]], cnt[house[3]])
        known = memo.get(key)
        if known is not None:
            return known
        res: list[Suffix] = []
        for x, (lid, n, p) in enumerate(cands):
            for k in range(1, rem + 1):
                d = walk(b, c, p, k)
                if d < 0:
                    break
                step = (lid, k)
                text = _txt(lid, k)
                wins = finishing and d >= RB_HOUSE > p and sum(cnt[h] for h in house) == 3
                if k == rem or wins:
                    res.append(((step,), text))
                    continue
                if p >= RB_HOUSE:
                    cnt[lid] -= 1
                if d >= RB_HOUSE:
                    cnt[path[d]] += 1
                if n > 1:
                    child = (*cands[:x], (lid, n - 1, p), *cands[x + 1 :])
                else:
                    child = cands[:x] + cands[x + 1 :]
                sub = solve(rem - k, child)
                if d >= RB_HOUSE:
                    cnt[path[d]] -= 1
                if p >= RB_HOUSE:
                    cnt[lid] += 1
                res += [((step, *steps), text + " " + rest) for steps, rest in sub]
        memo[key] = res
        return res

    return [make_move("7", KIND_STEPS, st, text="7: " + text) for st, text in solve(7, start)]


def _gen_seven(b: Board, seat_c: int, first_only: bool, rng: random.Random | None) -> list[Move]:
    if not first_only and rng is None:
        fast = _seven_memo(b, seat_c)
        if fast is not None:
            return fast
    out: list[Move] = []
    partner = (seat_c + 2) % 4

    def rec(
        board: RulebookBoard,
        c: int,
        rem: int,
        moved: frozenset[int],
        steps: tuple[tuple[int, int], ...],
        text: str,
    ) -> bool:
        groups: dict[int, int] = {}
        for i in range(c * 4, c * 4 + 4):
            lid = board.locs[i]
            if i not in moved and RB_PIDX[c][lid] >= 0 and lid not in groups:
                groups[lid] = i
        order = sorted(groups, key=location_order)
        ks = list(range(1, rem + 1))
        if rng is not None:
            rng.shuffle(order)
        for lid in order:
            i = groups[lid]
            p = RB_PIDX[c][lid]
            if rng is not None:
                rng.shuffle(ks)
            for k in ks:
                d = walk(board, c, p, k)
                if d < 0:
                    if rng is None:
                        break
                    continue
                nb = board.copy()
                _lift(nb, i)
                land(nb, i, c, RB_PATH[c][d], [])
                part = (*steps, (lid, k))
                txt = text + " " + _txt(lid, k)
                if k == rem or nb.team_won(seat_c):
                    out.append(make_move("7", KIND_STEPS, part, text=txt))
                    if first_only:
                        return True
                    continue
                nc = partner if c == seat_c and locked_n(nb.cnt, c) == 4 else c
                nmoved = moved | {i} if nc == c else frozenset()
                if rec(nb, nc, rem - k, nmoved, part, txt) and first_only:
                    return True
        return False

    start = b if isinstance(b, RulebookBoard) else RulebookBoard(b.locs)
    rec(start.copy(), _active(b, seat_c), 7, frozenset(), (), "7:")
    return out


def random_seven(b: Board, seat_c: int, rng: random.Random) -> Move | None:
    """A random legal 7 (not uniform over all splits), or None."""
    moves = _gen_seven(b, seat_c, True, rng)
    return moves[0] if moves else None


def _walk_error(code: int, at: int, n: int) -> IllegalMoveError:
    if code <= E_BLOCK_BASE:
        return IllegalMoveError.of("rb_t4", at=RB_CODES[E_BLOCK_BASE - code])
    return IllegalMoveError.of("rb_f1", at=RB_CODES[at], n=n)


def _pawn_at(b: Board, seat: int, c: int, lid: int, moved: set[int]) -> int:
    if lid >= RB_NLOC or b.cnt[lid] == 0:
        raise IllegalMoveError.of("no_pawn", at=RB_CODES[lid], seat=SEATS[seat])
    if b.owner[lid] != c:
        raise IllegalMoveError.of("not_yours", at=RB_CODES[lid], seat=SEATS[seat])
    if lid == home_lid(c):
        raise IllegalMoveError.of("c8_home", at=RB_CODES[lid])
    for i in range(c * 4, c * 4 + 4):
        if b.locs[i] == lid and i not in moved:
            return i
    raise IllegalMoveError.of("c7_twice", at=RB_CODES[lid])


def _step(
    b: Board,
    seat: int,
    c: int,
    lid: int,
    n: int,
    moved: set[int],
    events: list[EventTuple],
    dest_check: int,
) -> None:
    i = _pawn_at(b, seat, c, lid, moved)
    p = RB_PIDX[c][lid]
    if n < 0 and p >= RB_HOUSE:
        raise IllegalMoveError.of("rb_f7", at=RB_CODES[lid])
    d = walk(b, c, p, n)
    if d < 0:
        raise _walk_error(d, lid, n)
    dest = RB_PATH[c][d]
    if dest_check >= 0 and dest_check != dest:
        raise NotationError.of("dest", got=RB_CODES[dest], want=RB_CODES[dest_check])
    _lift(b, i)
    land(b, i, c, dest, events)
    moved.add(i)


def execute(b: Board, seat_c: int, move: Move) -> list[EventTuple]:
    """Check ``move`` for seat colour ``seat_c`` and play it on ``b`` (may be partly
    changed on error: callers keep a copy)."""
    card, kind = move.card, move.kind
    events: list[EventTuple] = []
    if card == "J" or kind == KIND_SWAP:
        if card != "J" or kind != KIND_SWAP or move.iswap is None:
            raise IllegalMoveError.of("c9_card")
        _swap(b, *move.iswap)
        return events
    c = _active(b, seat_c)
    if kind == KIND_IN:
        if card == "7":
            raise IllegalMoveError.of("c7_in")
        if card not in ENTER_CARDS:
            raise IllegalMoveError.of("c8_card")
        h = home_lid(c)
        if not b.cnt[h]:
            raise IllegalMoveError.of("c8_none", at=RB_CODES[h])
        if not _can_enter(b, c):
            raise IllegalMoveError.of("rb_c8", at=RB_CODES[start_lid(c)])
        i = b.locs.index(h, c * 4)
        _lift(b, i)
        land(b, i, c, start_lid(c), events)
        return events
    steps, dests = move.isteps, move.dests
    if card == "7":
        _seven(b, seat_c, c, move, events)
        return events
    if card == "11":
        raise IllegalMoveError.of("c5_11")
    lid, n = single_step(card, steps)
    _step(b, seat_c, c, lid, n, set(), events, dests[0] if dests else -1)
    return events


def _seven(b: Board, seat_c: int, c: int, move: Move, events: list[EventTuple]) -> None:
    steps, dests = move.isteps, move.dests
    total = 0
    for _lid, n in steps:
        if n < 1:
            raise IllegalMoveError.of("c7_part")
        total += n
    if total > 7:
        raise IllegalMoveError.of("c7_sum", total=total)
    moved: set[int] = set()
    last = len(steps) - 1
    for x, (lid, n) in enumerate(steps):
        _step(b, seat_c, c, lid, n, moved, events, dests[x] if dests else -1)
        if b.team_won(seat_c):
            if x != last:
                raise IllegalMoveError.of("w1", team="YB" if seat_c % 2 == 0 else "RG")
            return
        if c == seat_c and locked_n(b.cnt, c) == 4:
            c = (seat_c + 2) % 4
            moved = set()
    if total != 7:
        raise IllegalMoveError.of("c7_sum", total=total)


def _swap(b: Board, x: int, y: int) -> None:
    if x == y:
        raise IllegalMoveError.of("c9_same")
    for lid in (x, y):
        if lid >= RB_NLOC or not b.cnt[lid]:
            raise IllegalMoveError.of("c9_empty", at=RB_CODES[min(lid, RB_NLOC - 1)])
        if lid not in _swappable(b):
            raise IllegalMoveError.of("rb_c9", at=RB_CODES[lid])
    if not _swap_ok(b, x, y):
        raise IllegalMoveError.of("rb_c9_own0")
    i = b.locs.index(x)
    j = b.locs.index(y)
    b.locs[i], b.locs[j] = y, x
    b.owner[x], b.owner[y] = b.owner[y], b.owner[x]


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
