"""Positions: where the 16 pawns stand (NOTATION.md "Position").

A :class:`Position` is immutable. Internally it is a tuple of 16 location ids,
pawns ``4*c .. 4*c+3`` of colour ``c``, sorted within each colour, so equal
positions have equal tuples.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .board import (
    CODES,
    IS_GOAL,
    IS_RING,
    LID,
    LOC_COLOUR,
    NLOC,
    SEAT_INDEX,
    SEATS,
    TEAMS,
    goal_lid,
    home_lid,
)
from .errors import PositionError
from .rulebook_board import RB_CODES, RB_LID, location_order, rulebook_problem
from .ruleset import DM2023, Ruleset

_INITIAL = tuple(home_lid(c) for c in range(4) for _ in range(4))


def locked_count(locs: Sequence[int], c: int) -> int:
    """Number of locked pawns of colour c: occupied circles from M1 outward (F2)."""
    own = locs[4 * c : 4 * c + 4]
    n = 0
    while n < 4 and goal_lid(c, n + 1) in own:
        n += 1
    return n


def canonical(locs: Sequence[int]) -> tuple[int, ...]:
    """Sort pawns within each colour (location order)."""
    if max(locs) >= NLOC:  # a rulebook own-15 id: sort by location order
        return tuple(
            x for c in range(4) for x in sorted(locs[4 * c : 4 * c + 4], key=location_order)
        )
    return (
        *sorted(locs[0:4]),
        *sorted(locs[4:8]),
        *sorted(locs[8:12]),
        *sorted(locs[12:16]),
    )


def _bad(why: str, why_da: str, rule: str = "N") -> PositionError:
    err = PositionError.of("bad_position", why=why, why_da=why_da)
    err.rule = rule
    return err


def check_locs(locs: Sequence[int]) -> None:
    """Raise :class:`PositionError` unless ``locs`` is a valid position."""
    owner: dict[int, int] = {}
    for i, lid in enumerate(locs):
        c = i // 4
        code = CODES[lid]
        if IS_RING[lid]:
            prev = owner.setdefault(lid, c)
            if prev != c:
                raise _bad(
                    f"two colours ({SEATS[prev]} and {SEATS[c]}) on field {code}",
                    f"to farver ({SEATS[prev]} og {SEATS[c]}) på felt {code}",
                    "T1",
                )
        elif LOC_COLOUR[lid] != c:
            raise _bad(
                f"a {SEATS[c]} pawn on {code}, which belongs to {SEATS[LOC_COLOUR[lid]]}",
                f"en {SEATS[c]}-brik på {code}, som hører til {SEATS[LOC_COLOUR[lid]]}",
                "B5",
            )
        elif IS_GOAL[lid] and lid in owner:
            raise _bad(
                f"two pawns on the goal circle {code}",
                f"to brikker på målcirklen {code}",
                "F1",
            )
        else:
            owner[lid] = c


class Position:
    """An immutable position of the 16 pawns.

    Build one with :meth:`initial` or :meth:`from_json`; read it with
    :meth:`to_json`, :meth:`pawns` and :meth:`locked`.
    """

    __slots__ = ("_hash", "_locs")

    def __init__(self, locs: Iterable[int], *, _checked: bool = False) -> None:
        t = canonical(tuple(locs))
        if len(t) != 16:
            raise _bad("a position has 16 pawns", "en stilling har 16 brikker", "S2")
        if not _checked:
            if not all(isinstance(x, int) and 0 <= x < len(CODES) for x in t):
                raise _bad("location ids are integers 0..79", "felt-id'er er heltal 0..79", "B5")
            check_locs(t)
        self._locs: tuple[int, ...] = t
        self._hash = hash(t)

    @classmethod
    def initial(cls) -> Position:
        """All 16 pawns in their start circles (S2)."""
        return _INITIAL_POSITION

    @classmethod
    def from_json(cls, data: Mapping[str, Any], ruleset: Ruleset = DM2023) -> Position:
        """Read ``{"Y": [4 codes], "R": …, "B": …, "G": …}``; raises PositionError.

        The codes and invariants are those of the ruleset's board (the
        rulebook adds ``X15`` and lets other colours stand on ``XS``).
        """
        rulebook = ruleset.board == "rulebook"
        lids = RB_LID if rulebook else LID
        if not isinstance(data, Mapping):
            raise _bad(
                "a position is an object with keys Y, R, B, G",
                "en stilling er et objekt med nøglerne Y, R, B, G",
            )
        if set(data) != set(SEATS):
            raise _bad(
                f"a position has exactly the keys Y, R, B, G (got {sorted(map(str, data))})",
                f"en stilling har præcis nøglerne Y, R, B, G (fik {sorted(map(str, data))})",
            )
        locs: list[int] = []
        for s in SEATS:
            pawns = data[s]
            if not isinstance(pawns, list | tuple) or len(pawns) != 4:
                raise _bad(
                    f"{s} must list exactly 4 pawns", f"{s} skal have præcis 4 brikker", "S2"
                )
            for code in pawns:
                lid = lids.get(code) if isinstance(code, str) else None
                if lid is None:
                    raise _bad(f"unknown location {code!r}", f"ukendt felt {code!r}", "B5")
                locs.append(lid)
        if not rulebook:
            return cls(locs)
        problem = rulebook_problem(locs)
        if problem is not None:
            raise _bad(problem[1], problem[2], problem[0])
        return cls(locs, _checked=True)

    def to_json(self) -> dict[str, list[str]]:
        """The NOTATION.md form, each colour's pawns in location order."""
        t = self._locs
        return {s: [RB_CODES[x] for x in t[4 * c : 4 * c + 4]] for c, s in enumerate(SEATS)}

    @property
    def locs(self) -> tuple[int, ...]:
        """The 16 internal location ids (pawns 4c..4c+3 of colour c)."""
        return self._locs

    def pawns(self, colour: str) -> list[str]:
        """Locations of a colour's 4 pawns in location order."""
        c = SEAT_INDEX[colour]
        return [RB_CODES[x] for x in self._locs[4 * c : 4 * c + 4]]

    def locked(self, colour: str) -> list[str]:
        """Goal circles holding the colour's locked pawns (F2), innermost first."""
        c = SEAT_INDEX[colour]
        return [CODES[goal_lid(c, m)] for m in range(1, locked_count(self._locs, c) + 1)]

    def is_locked(self, loc: str) -> bool:
        """True if a locked pawn stands on ``loc`` (F2)."""
        lid = LID.get(loc)
        if lid is None or not IS_GOAL[lid]:
            return False
        c = LOC_COLOUR[lid]
        return lid % 20 - 15 <= locked_count(self._locs, c)

    def is_finished(self, seat: str) -> bool:
        """True if all 4 pawns of ``seat`` are locked (F4)."""
        return locked_count(self._locs, SEAT_INDEX[seat]) == 4

    def winner(self) -> str | None:
        """The team with all 8 pawns locked (W1), else None."""
        for team, (a, b) in TEAMS.items():
            if self.is_finished(a) and self.is_finished(b):
                return team
        return None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._locs == other._locs

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Position({self.to_json()!r})"


_INITIAL_POSITION = Position(_INITIAL, _checked=True)
