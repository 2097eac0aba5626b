"""DUO positions: 12 pawns, 3 per area (docs/rulesets/duo.md S2, B3, T1, F1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import PositionError
from .board import AREAS, GOALS, PAWNS, PLAYERS, DuoBoard, layout

# --- positions -----------------------------------------------------------------


def _bad(rule: str, why: str, why_da: str) -> PositionError:
    err = PositionError.of("bad_position", why=why, why_da=why_da)
    err.rule = rule
    return err


class DuoPosition:
    """An immutable DUO position: 12 pawns, 3 per area, sorted within an area."""

    __slots__ = ("fields", "locs")

    def __init__(self, locs: Sequence[int], fields: int) -> None:
        self.fields = fields
        self.locs: tuple[int, ...] = tuple(
            x for a in range(4) for x in sorted(locs[PAWNS * a : PAWNS * a + PAWNS])
        )

    @classmethod
    def initial(cls, fields: int) -> DuoPosition:
        """All 12 pawns at home (S2)."""
        lay = layout(fields)
        return cls([lay.home(a) for a in range(4) for _ in range(PAWNS)], fields)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], fields: int) -> DuoPosition:
        """Read ``{"YK": [3 codes], "RK": …, "YO": …, "RO": …}``; raises PositionError."""
        lay = layout(fields)
        if not isinstance(data, Mapping) or set(data) != set(AREAS):
            raise _bad(
                "N",
                "a DUO position is an object with keys YK, RK, YO, RO",
                "en DUO-stilling er et objekt med nøglerne YK, RK, YO, RO",
            )
        locs: list[int] = []
        for a, name in enumerate(AREAS):
            pawns = data[name]
            if not isinstance(pawns, list | tuple) or len(pawns) != PAWNS:
                raise _bad("S2", f"{name} must list 3 pawns", f"{name} skal have 3 brikker")
            for code in pawns:
                lid = lay.lid.get(code) if isinstance(code, str) else None
                if lid is None:
                    raise _bad("B3", f"unknown location {code!r}", f"ukendt felt {code!r}")
                if not lay.is_field[lid] and lid // lay.block != a:
                    raise _bad(
                        "B3",
                        f"a {name} pawn on {code}, which belongs to another area",
                        f"en {name}-brik på {code}, som hører til et andet område",
                    )
                locs.append(lid)
        owner: dict[int, int] = {}
        for i, lid in enumerate(locs):
            a = i // PAWNS
            prev = owner.setdefault(lid, a)
            if lay.is_field[lid] and prev != a:
                raise _bad(
                    "T1",
                    f"two areas on field {lay.codes[lid]}",
                    f"to områder på felt {lay.codes[lid]}",
                )
            if lay.is_goal[lid] and locs.count(lid) > 1:
                raise _bad(
                    "F1",
                    f"two pawns on goal circle {lay.codes[lid]}",
                    f"to brikker på målcirkel {lay.codes[lid]}",
                )
        return cls(locs, fields)

    def to_json(self) -> dict[str, list[str]]:
        """The notation form, each area's pawns in location order."""
        codes = layout(self.fields).codes
        return {
            name: [codes[x] for x in self.locs[PAWNS * a : PAWNS * a + PAWNS]]
            for a, name in enumerate(AREAS)
        }

    def locked(self, seat: str) -> list[str]:
        """The goal circles of the locked pawns (F1) of a player (``Y``: areas YK and
        YO) or of one area (``YK``); ``[]`` for any other name, as a four-seat
        position answers for a colour DUO does not have."""
        names = (
            (AREAS[PLAYERS.index(seat)], AREAS[PLAYERS.index(seat) + 2])
            if seat in PLAYERS
            else (seat,)
            if seat in AREAS
            else ()
        )
        b = DuoBoard(self.locs, layout(self.fields))
        return [f"{name}M{m}" for name in names for m in range(1, b.locked(AREAS.index(name)) + 1)]

    def winner(self) -> str | None:
        """The player with all six pawns locked (W1), else None."""
        b = DuoBoard(self.locs, layout(self.fields))
        for s in (0, 1):
            if b.locked(s) == GOALS and b.locked(s + 2) == GOALS:
                return PLAYERS[s]
        return None

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, DuoPosition)
            and self.locs == other.locs
            and self.fields == other.fields
        )

    def __hash__(self) -> int:
        return hash(self.locs)

    def __repr__(self) -> str:
        return f"DuoPosition({self.to_json()!r})"
