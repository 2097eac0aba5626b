"""Walking a pawn: forward along its path into the finish area, backward on the track.

Walk results are path indexes (>= 1) or negative error codes:
``-100 - lid`` = T4 (start field ``lid`` blocks), ``E_F1``, ``E_F5_FIRST``,
``E_F5_BOTH``. A walk of k+1 steps extends the walk of k steps, so once a
pawn fails with k steps it fails with every larger k.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .board import BACK, FWD_CROSS, PATH, PIDX, REMAINING_HOME, REMAINING_START
from .errors import IllegalMoveError
from .position import locked_count
from .rulebook_board import RB_CODES

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

STEP_TXT: Final = tuple(
    tuple(f"{code}+{n}" if n > 0 else f"{code}-{-n}" for n in range(-14, 15)) for code in RB_CODES
)
"""STEP_TXT[lid][n + 14]: the text of n steps from ``lid`` (every board's location ids)."""


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


def pawn_distances(locs: Sequence[int]) -> list[list[int]]:
    """Steps each pawn still needs to reach its M1, per colour (W3)."""
    out: list[list[int]] = []
    for c in range(4):
        lc = locked_count(locs, c)
        row = []
        for lid in sorted(locs[4 * c : 4 * c + 4]):
            p = PIDX[c][lid]
            if p == -1:
                row.append(REMAINING_HOME)
            elif p == 0:
                row.append(REMAINING_START)
            elif p > 60 - lc:
                row.append(0)
            else:
                row.append(60 - p)
        out.append(row)
    return out


def single_step(card: str, steps: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The one ``(pawn, steps)`` a card other than 7 moves, refused by its rule
    (C2/C3/C4/C5) when the move names more pawns or steps the card does not give."""
    (lid, n), *more = steps
    if card == "4":
        if more or n != -4:
            raise IllegalMoveError.of("c4")
    elif more or n not in FORWARD[card]:
        key = "c3" if card == "1" else "c5" if card in ENTER_CARDS else "c2"
        raise IllegalMoveError.of(key, card=card)
    return lid, n
