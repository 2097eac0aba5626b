"""The printed rulebook's board as integer tables (docs/rulesets/rulebook.md B1–B7).

The rulebook board is the dm2023 board counted differently: the 60 spaces
``XS``, ``X1``…``X14`` of the four quarters all count (B2), and the space
next to X's Start is two spaces for X's pawns: own **0** (``XS``, where they
come into play) and own **15** (``X15``, where they arrive before House,
B6). ``X15`` gets its own location id ``X15_LID + c`` after the 80 dm2023
ids, so every dm2023 table keeps its size; ``XS`` keeps its dm2023 id and
may hold any colour (for the others it is the space 0/15).

A pawn of colour ``c`` has a *path index* (B4): 0 = own 0 (``XS``),
1..59 = ``X1`` round to ``P14``, 60 = own 15, 61..64 = House 16..19
(``XM4``…``XM1``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .board import CODES, LOC_COLOUR, NLOC, SEATS, goal_lid, home_lid, start_lid

RB_NLOC: Final = NLOC + 4
"""Location ids of the rulebook board: the 80 dm2023 ids and the four own-15 spaces."""

X15_LID: Final = NLOC
"""``X15_LID + c`` is colour c's own 15."""

RB_CODES: Final = (*CODES, *(s + "15" for s in SEATS))
RB_LID: Final = {code: i for i, code in enumerate(RB_CODES)}

RB_OWN0: Final = 0
RB_OWN15: Final = 60
RB_HOUSE: Final = 61
RB_LAST: Final = 64
RB_TRACK: Final = 60
"""Spaces on the ring (B1)."""


def ring_space(r: int) -> int:
    """Id of ring space r (0..59, ``YS`` = 0): ``XS`` then ``X1``…``X14`` per quarter."""
    r %= RB_TRACK
    return (r // 15) * 20 + 1 + r % 15


def _path(c: int) -> tuple[int, ...]:
    p = [ring_space(c * 15 + i) for i in range(RB_TRACK)]
    p.append(X15_LID + c)
    p += [goal_lid(c, m) for m in (4, 3, 2, 1)]
    return tuple(p)


RB_PATH: Final = tuple(_path(c) for c in range(4))
"""RB_PATH[c][p]: location id of path index p (0..64) for colour c."""


def _pidx(c: int) -> tuple[int, ...]:
    t = [-2] * RB_NLOC
    t[home_lid(c)] = -1
    for p, lid in enumerate(RB_PATH[c]):
        t[lid] = p
    return tuple(t)


RB_PIDX: Final = tuple(_pidx(c) for c in range(4))
"""RB_PIDX[c][lid]: path index for colour c; -1 its Start, -2 not on its path."""

RB_IS_TRACK: Final = tuple(i < NLOC and 1 <= i % 20 <= 15 for i in range(RB_NLOC))
"""The 60 ring spaces (``XS`` and ``X1``…``X14``); own 15 is not listed (one owner)."""
RB_IS_HOUSE: Final = tuple(i < NLOC and i % 20 >= 16 for i in range(RB_NLOC))
RB_IS_START_SPACE: Final = tuple(i < NLOC and i % 20 == 1 for i in range(RB_NLOC))
RB_LOC_COLOUR: Final = (*LOC_COLOUR, 0, 1, 2, 3)


def _crossed(c: int, p: int, n: int) -> tuple[int, ...]:
    """Other colours' start spaces stepped over (not landed on) moving n forward from p."""
    return tuple(
        RB_PATH[c][q]
        for q in range(p + 1, min(p + n, RB_OWN15))
        if RB_IS_START_SPACE[RB_PATH[c][q]] and RB_LOC_COLOUR[RB_PATH[c][q]] != c
    )


RB_CROSS: Final = tuple(
    tuple(tuple(_crossed(c, p, n) for n in range(15)) for p in range(RB_LAST + 1)) for c in range(4)
)
"""RB_CROSS[c][p][n]: start spaces of other colours passed moving n forward from path p."""


def _back(c: int, p: int, n: int) -> tuple[int, tuple[int, ...]]:
    q = p
    crossed = []
    for k in range(1, n + 1):
        q = 59 if q in (RB_OWN0, RB_OWN15) else q - 1
        lid = RB_PATH[c][q]
        if k < n and RB_IS_START_SPACE[lid] and RB_LOC_COLOUR[lid] != c:
            crossed.append(lid)
    return q, tuple(crossed)


RB_BACK: Final = tuple(tuple(_back(c, p, 4) for p in range(RB_OWN15 + 1)) for c in range(4))
"""RB_BACK[c][p]: (path index, other start spaces passed) moving 4 back from path p."""

_ORDER: Final = tuple(
    (i - X15_LID) * 20 + 15.5 if i >= X15_LID else float(i) for i in range(RB_NLOC)
)
"""Location order (NOTATION.md): own 15 sits between ``X14`` and ``XM1``."""


def location_order(lid: int) -> float:
    """Sort key of a location id in location order."""
    return _ORDER[lid]


def rulebook_problem(locs: Sequence[int]) -> tuple[str, str, str] | None:
    """Why ``locs`` is not a rulebook position (B7): ``(rule, why, why_da)``, or None."""
    colour_at: dict[int, int] = {}
    for i, lid in enumerate(locs):
        c = i // 4
        code = RB_CODES[lid]
        if RB_IS_TRACK[lid]:
            prev = colour_at.setdefault(lid, c)
            if prev != c:
                return (
                    "T1",
                    f"two colours ({SEATS[prev]} and {SEATS[c]}) on space {code}",
                    f"to farver ({SEATS[prev]} og {SEATS[c]}) på felt {code}",
                )
            continue
        if RB_LOC_COLOUR[lid] != c:
            return (
                "B5",
                f"a {SEATS[c]} pawn on {code}, which belongs to {SEATS[RB_LOC_COLOUR[lid]]}",
                f"en {SEATS[c]}-brik på {code}, som hører til {SEATS[RB_LOC_COLOUR[lid]]}",
            )
        if RB_IS_HOUSE[lid] and lid in colour_at:
            return (
                "F1",
                f"two pawns on the House space {code}",
                f"to brikker på Hus-feltet {code}",
            )
        colour_at[lid] = c
    for c in range(4):
        if X15_LID + c in locs[4 * c : 4 * c + 4]:
            s = start_lid(c)
            if any(lid == s for i, lid in enumerate(locs) if i // 4 != c):
                return (
                    "B7",
                    f"{SEATS[c]}15 and {CODES[s]} are one space: another colour cannot stand on "
                    f"{CODES[s]} beside a {SEATS[c]} pawn on {SEATS[c]}15",
                    f"{SEATS[c]}15 og {CODES[s]} er ét felt: en anden farve kan ikke stå på "
                    f"{CODES[s]} ved siden af en {SEATS[c]}-brik på {SEATS[c]}15",
                )
    return None
