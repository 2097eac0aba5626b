"""Seats, teams, cards and the board as integer tables (RULES.md S1, B1–B5).

Every location has an integer id in *location order* (NOTATION.md): colour
Y, R, B, G; within a colour ``H``, ``S``, ``1``…``14``, ``M1``…``M4``. So
``lid = colour * 20 + k`` with k = 0 (H), 1 (S), 2..15 (fields 1..14),
16..19 (M1..M4). Sorting ids sorts locations.

A pawn of colour ``c`` has a *path index* along its route (B4): 0 = its start
field, 1..56 = the numbered fields from ``c1`` round to the field before its
start field, 57..60 = ``cM4``…``cM1``. The engine works on these tables; codes
are only produced at the API boundary.
"""

from __future__ import annotations

from typing import Final

SEATS: Final = ("Y", "R", "B", "G")
"""The seats clockwise (S1); the index of a seat is its colour number."""

TEAMS: Final = {"YB": ("Y", "B"), "RG": ("R", "G")}
"""The two teams: partners sit opposite each other (S1)."""

CARDS: Final = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J")
"""The 14 card kinds (C1)."""

COLOUR_EN: Final = {"Y": "yellow", "R": "red", "B": "blue", "G": "green"}
COLOUR_DA: Final = {"Y": "gul", "R": "rød", "B": "blå", "G": "grøn"}

NFIELDS: Final = 56
LAST_TRACK: Final = 56
GOAL_M4: Final = 57
GOAL_M1: Final = 60
NLOC: Final = 80

SEAT_INDEX: Final = {s: i for i, s in enumerate(SEATS)}


def team_of(seat: str) -> str:
    """Return the team ("YB" or "RG") of a seat."""
    if seat in ("Y", "B"):
        return "YB"
    if seat in ("R", "G"):
        return "RG"
    raise ValueError(f"unknown seat {seat!r}")


def partner_of(seat: str) -> str:
    """Return the partner's seat (the one opposite, S1)."""
    return SEATS[(SEAT_INDEX[seat] + 2) % 4]


def home_lid(c: int) -> int:
    return c * 20


def start_lid(c: int) -> int:
    return c * 20 + 1


def goal_lid(c: int, m: int) -> int:
    """Id of goal circle ``M{m}`` of colour c (m = 1 innermost .. 4)."""
    return c * 20 + 15 + m


def ring_lid(r: int) -> int:
    """Id of the numbered field with ring index r (0..55, Y1 = 0)."""
    r %= NFIELDS
    return (r // 14) * 20 + 2 + r % 14


def _code(lid: int) -> str:
    c, k = divmod(lid, 20)
    s = SEATS[c]
    if k == 0:
        return s + "H"
    if k == 1:
        return s + "S"
    if k <= 15:
        return s + str(k - 1)
    return s + "M" + str(k - 15)


CODES: Final = tuple(_code(i) for i in range(NLOC))
"""Location code of every id."""
LID: Final = {code: i for i, code in enumerate(CODES)}
"""Id of every location code."""

IS_RING: Final = tuple(2 <= i % 20 <= 15 for i in range(NLOC))
"""True for the 56 numbered fields (B1)."""
IS_GOAL: Final = tuple(i % 20 >= 16 for i in range(NLOC))
LOC_COLOUR: Final = tuple(i // 20 for i in range(NLOC))


def _path(c: int) -> tuple[int, ...]:
    p = [start_lid(c)]
    p += [ring_lid(c * 14 + i) for i in range(NFIELDS)]
    p += [goal_lid(c, m) for m in (4, 3, 2, 1)]
    return tuple(p)


PATH: Final = tuple(_path(c) for c in range(4))
"""PATH[c][p]: location id of path index p (0..60) for colour c."""


def _pidx(c: int) -> tuple[int, ...]:
    t = [-2] * NLOC
    t[home_lid(c)] = -1
    for p, lid in enumerate(PATH[c]):
        t[lid] = p
    return tuple(t)


PIDX: Final = tuple(_pidx(c) for c in range(4))
"""PIDX[c][lid]: path index of a location for colour c; -1 home, -2 not on c's path."""


def _crossings(c: int, p: int, n: int) -> tuple[int, ...]:
    """Other colours' start fields passed moving forward n from path p (T4)."""
    end = min(p + n, LAST_TRACK)
    return tuple(start_lid((c + j) % 4) for j in (1, 2, 3) if p <= 14 * j < end)


FWD_CROSS: Final = tuple(
    tuple(tuple(_crossings(c, p, n) for n in range(15)) for p in range(LAST_TRACK + 1))
    for c in range(4)
)
"""FWD_CROSS[c][p][n]: start-field ids crossed going forward (to path 56 at most)."""


def _back(c: int, p: int, n: int) -> tuple[int, tuple[int, ...]]:
    crossed: list[int] = []
    if p == 0:
        r = c * 14 - 1
        n -= 1
    else:
        r = c * 14 + p - 1
    r %= NFIELDS
    for _ in range(n):
        if r % 14 == 0 and r // 14 != c:
            crossed.append(start_lid(r // 14))
        r = (r - 1) % NFIELDS
    return (r - c * 14) % NFIELDS + 1, tuple(crossed)


BACK: Final = tuple(
    tuple(tuple(_back(c, p, n) if n else (p, ()) for n in range(15)) for p in range(LAST_TRACK + 1))
    for c in range(4)
)
"""BACK[c][p][n]: (target path index, start-field ids crossed) moving n backward."""

REMAINING_HOME: Final = 61
REMAINING_START: Final = 60
