"""The mutable integer board and what a move does to it: landing (T2), locking (F2).

Hot paths work on a :class:`Board` of integers (location ids, counts per
location, colour per occupied location); :func:`place`
puts a pawn down: a landing, a hit, a lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .board import IS_GOAL, IS_RING, LOC_COLOUR, NLOC, SEATS
from .position import Position
from .rulebook_board import RB_CODES

_OWNER0: Final = tuple(-1 if IS_RING[i] else LOC_COLOUR[i] for i in range(NLOC))

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
    return Event(t[0], SEATS[t[1]], RB_CODES[t[2]])


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
