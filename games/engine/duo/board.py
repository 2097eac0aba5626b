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
        n = 0
        while n < GOALS and self.cnt[self.lay.goal(a, n + 1)]:
            n += 1
        return n

    def won(self, s: int) -> bool:
        return self.locked(s) == GOALS and self.locked(s + 2) == GOALS
