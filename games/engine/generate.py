"""Legal-move generation for one card (C2–C9), in canonical order."""

from __future__ import annotations

from typing import Final

from .board import CODES, IS_RING, NLOC, PIDX
from .boardstate import Board, locked_n
from .notation import KIND_IN, KIND_STEPS, KIND_SWAP, Move, make_move
from .seven import gen_seven
from .walk import ENTER_CARDS, FORWARD, STEP_TXT, walk_back, walk_forward

_SWAP_TXT: Final = tuple(
    tuple(f"J: {CODES[a]}<>{CODES[b]}" for b in range(NLOC)) for a in range(NLOC)
)

# generation


def gen_moves(b: Board, seat_c: int, card: str, f6: bool = True) -> list[Move]:
    """All legal moves of ``card`` for seat colour ``seat_c``, canonical order."""
    if card == "7":
        return gen_seven(b, seat_c, f6)
    if card == "J":
        return _gen_swap(b)
    out: list[Move] = []
    cnt = b.cnt
    c = seat_c if locked_n(cnt, seat_c) < 4 else (seat_c + 2) % 4
    if card in ENTER_CARDS and cnt[c * 20]:
        out.append(make_move(card, KIND_IN, text=card + ": in"))
    if card == "11":
        return out
    lc = locked_n(cnt, c)
    target = 60 - lc
    prefix = card + ": "
    pidx = PIDX[c]
    base = c * 4
    locs = b.locs
    own = sorted({locs[base], locs[base + 1], locs[base + 2], locs[base + 3]})
    if card == "4":
        for lid in own:
            p = pidx[lid]
            if 0 <= p <= 56 and walk_back(cnt, c, p, 4) >= 0:
                out.append(
                    make_move(card, KIND_STEPS, ((lid, -4),), text=prefix + STEP_TXT[lid][10])
                )
        return out
    ns = FORWARD[card]
    for lid in own:
        p = pidx[lid]
        if p < 0 or p > target:
            continue
        for n in ns:
            d = walk_forward(cnt, c, lid, p, n)
            if d < 0:
                break
            if d >= 57 and p >= 57 and f6 and d != target:
                continue
            out.append(
                make_move(card, KIND_STEPS, ((lid, n),), text=prefix + STEP_TXT[lid][n + 14])
            )
    return out


def has_move(b: Board, seat_c: int, card: str, f6: bool = True) -> Move | None:
    """A legal move of ``card`` if there is one (first in canonical order), else None."""
    if card == "7":
        moves = gen_seven(b, seat_c, f6, first_only=True)
    elif card == "J":
        moves = _gen_swap(b, first_only=True)
    else:
        moves = gen_moves(b, seat_c, card, f6)
    return moves[0] if moves else None


def _gen_swap(b: Board, first_only: bool = False) -> list[Move]:
    cnt = b.cnt
    singles = sorted({lid for lid in b.locs if IS_RING[lid] and cnt[lid] == 1})
    out: list[Move] = []
    for x, a in enumerate(singles):
        row = _SWAP_TXT[a]
        for bb in singles[x + 1 :]:
            out.append(make_move("J", KIND_SWAP, iswap=(a, bb), text=row[bb]))
            if first_only:
                return out
    return out
