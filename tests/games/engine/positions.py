"""Random valid positions biased towards the interesting places (finish
areas, start fields, the fields just before a finish), for property tests."""

from __future__ import annotations

import random

from games.engine import SEATS, Position

_PREV = {s: SEATS[(i - 1) % 4] for i, s in enumerate(SEATS)}


def random_position_json(rng: random.Random) -> dict[str, list[str]]:
    """A valid position as NOTATION.md JSON."""
    owner: dict[str, str] = {}
    pos: dict[str, list[str]] = {s: [] for s in SEATS}
    for s in SEATS:
        for _ in range(4):
            r = rng.random()
            if r < 0.12:
                loc = s + "H"
            elif r < 0.25:
                loc = s + "S"
            elif r < 0.55:
                loc = f"{s}M{rng.randint(1, 4)}"
            elif r < 0.8:
                q = rng.choice((_PREV[s], s))
                loc = f"{q}{rng.randint(8, 14) if q != s else rng.randint(1, 5)}"
            else:
                loc = f"{rng.choice(SEATS)}{rng.randint(1, 14)}"
            if loc[1:].isdigit():
                if owner.setdefault(loc, s) != s:
                    loc = s + "H"
            elif loc[1] == "M":
                if loc in owner:
                    loc = s + "H"
                owner[loc] = s
            pos[s].append(loc)
    return pos


def random_position(rng: random.Random) -> Position:
    return Position.from_json(random_position_json(rng))
