"""DUO board: areas, players, cards and the integer layout (docs/rulesets/duo.md B1–B4)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from ..errors import IllegalMoveError, NotationError

AREAS: Final = ("YK", "RK", "YO", "RO")
"""The four home areas clockwise (B1)."""
PLAYERS: Final = ("Y", "R")
PLAYER_EN: Final = {"Y": "yellow", "R": "red"}
PLAYER_DA: Final = {"Y": "gul", "R": "rød"}
PAWNS: Final = 3
"""Pawns per area (S2): three knob pawns and three hole pawns per player."""
GOALS: Final = 3
"""Goal circles per area (F1): innermost, middle, outermost ring."""

ENTER: Final = frozenset(("1", "6", "8"))
STEPS: Final = {
    "1": (1,),
    "2": (2, -2),
    "3": (3,),
    "5": (5,),
    "6": (6,),
    "7": (7,),
    "8": (8,),
    "9": (9,),
    "10": (10,),
    "12": (12,),
}
"""Single-pawn step counts per card (C2–C7)."""
MAX_STEPS: Final = 12
"""The most steps one walk takes (the 12)."""


def illegal(rule: str, en: str, da: str) -> IllegalMoveError:
    return IllegalMoveError(rule, en, da)


def syntax_error(what: object, why: str, why_da: str) -> NotationError:
    return NotationError.of("syntax", what=what, why=why, why_da=why_da)


# --- the board ---------------------------------------------------------------


class Layout:
    """The DUO board for ``fields`` track fields per area (B2, a ruleset setting)."""

    def __init__(self, fields: int) -> None:
        n = fields
        self.fields = n
        self.block = n + 5
        self.track = 4 * n
        self.last = 4 * n + 3
        self.nloc = 4 * self.block
        codes = []
        for name in AREAS:
            codes += [name + "H", name + "S", *(f"{name}{j}" for j in range(1, n + 1))]
            codes += [f"{name}M{m}" for m in range(1, GOALS + 1)]
        self.codes: tuple[str, ...] = tuple(codes)
        self.lid = {c: i for i, c in enumerate(codes)}
        self.path = tuple(self._path(a) for a in range(4))
        pidx = []
        for a in range(4):
            t = [-2] * self.nloc
            t[self.home(a)] = -1
            for p, lid in enumerate(self.path[a]):
                t[lid] = p
            pidx.append(tuple(t))
        self.pidx: tuple[tuple[int, ...], ...] = tuple(pidx)
        self.is_field = tuple(2 <= i % self.block <= n + 1 for i in range(self.nloc))
        self.is_goal = tuple(i % self.block >= n + 2 for i in range(self.nloc))
        self.goals: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.goal(a, m) for m in range(1, GOALS + 1)) for a in range(4)
        )
        """goals[a]: area a's goal circles, innermost first (locking order, F1)."""
        self.fwd_cross = tuple(
            tuple(
                tuple(self._fwd_cross(a, p, k) for k in range(MAX_STEPS + 1))
                for p in range(self.track + 1)
            )
            for a in range(4)
        )
        """fwd_cross[a][p][k]: start fields guarding the track fields entered walking k forward
        from path p (T3), in walk order."""
        self.back = tuple(
            tuple(
                tuple(self._back(a, p, k) for k in range(MAX_STEPS + 1))
                for p in range(self.track + 1)
            )
            for a in range(4)
        )
        """back[a][p][k]: (path index reached, start fields guarding the fields passed) walking k
        back from path p (C4, T3)."""

    def home(self, a: int) -> int:
        return a * self.block

    def start(self, a: int) -> int:
        return a * self.block + 1

    def goal(self, a: int, m: int) -> int:
        """Goal circle ``M{m}`` of area a (1 innermost)."""
        return a * self.block + self.fields + 1 + m

    def ring(self, r: int) -> int:
        """Track field with ring index r (0 = ``YK1``)."""
        r %= self.track
        return (r // self.fields) * self.block + 2 + r % self.fields

    def _path(self, a: int) -> tuple[int, ...]:
        p = [self.start(a)]
        p += [self.ring(a * self.fields + i) for i in range(self.track)]
        p += [self.goal(a, m) for m in (3, 2, 1)]
        return tuple(p)

    def ring_of(self, a: int, p: int) -> int:
        """Ring index of path index p (1..4n) of area a."""
        return (a * self.fields + p - 1) % self.track

    def _fwd_cross(self, a: int, p: int, k: int) -> tuple[int, ...]:
        # a pawn entering an area's first field passes that area's start field
        return tuple(
            self.start(self.ring_of(a, q) // self.fields)
            for q in range(max(p + 1, 2), min(p + k, self.track) + 1)
            if self.ring_of(a, q) % self.fields == 0
        )

    def _back(self, a: int, p: int, k: int) -> tuple[int, tuple[int, ...]]:
        r = self.ring_of(a, p) if p > 0 else (a * self.fields) % self.track
        crossed = []
        for _ in range(k):
            owner = r // self.fields
            if r % self.fields == 0 and owner != a:
                crossed.append(self.start(owner))
            r = (r - 1) % self.track
        return (r - a * self.fields) % self.track + 1, tuple(crossed)


@lru_cache(maxsize=8)
def layout(fields: int) -> Layout:
    """The (cached) board of a field count."""
    return Layout(fields)


BLOCKED = -100
CANNOT = -2


class DuoBoard:
    __slots__ = ("cnt", "lay", "locs", "owner")

    def __init__(self, locs: Sequence[int], lay: Layout) -> None:
        self.lay = lay
        self.locs = list(locs)
        self.cnt = [0] * lay.nloc
        self.owner = [-1] * lay.nloc
        for i, lid in enumerate(self.locs):
            self.cnt[lid] += 1
            self.owner[lid] = i // PAWNS

    def copy(self) -> DuoBoard:
        new = DuoBoard.__new__(DuoBoard)
        new.lay, new.locs, new.cnt, new.owner = self.lay, self.locs[:], self.cnt[:], self.owner[:]
        return new

    def locked(self, a: int) -> int:
        """Locked pawns of area a: occupied goal circles from the innermost out (F1)."""
        cnt = self.cnt
        m1, m2, m3 = self.lay.goals[a]
        if not cnt[m1]:
            return 0
        if not cnt[m2]:
            return 1
        return 3 if cnt[m3] else 2

    def won(self, s: int) -> bool:
        """True if player s has all six pawns locked (W1)."""
        cnt = self.cnt
        a1, a2, a3 = self.lay.goals[s]
        b1, b2, b3 = self.lay.goals[s + 2]
        return bool(cnt[a1] and cnt[a2] and cnt[a3] and cnt[b1] and cnt[b2] and cnt[b3])
