"""Position invariants checked after every self-play move.

Kept out of the test modules on purpose: pytest rewrites ``assert`` in test
modules, which would make this hot function several times slower.
"""

from __future__ import annotations

_RING = frozenset(lid for lid in range(80) if 2 <= lid % 20 <= 15)
_ALLOWED = tuple(_RING | {c * 20 + k for k in (0, 1, 16, 17, 18, 19)} for c in range(4))
_GOALSET = tuple(frozenset(c * 20 + 16 + m for m in range(4)) for c in range(4))
_M = tuple(tuple(c * 20 + 16 + m for m in range(4)) for c in range(4))


def problem(locs: tuple[int, ...], prev_locked: list[int]) -> str | None:
    """None if ``locs`` is sound, else what is wrong.

    16 pawns, 4 per colour; never two colours on a field (T1); nobody on
    another colour's start circle, start field or goal circle (B5); one pawn
    per goal circle (F1); locked pawns never move (F3: a colour's locked
    count never falls). ``prev_locked`` is updated in place.
    """
    if len(locs) != 16:
        return "not 16 pawns"
    rings = []
    for c in range(4):
        own = locs[4 * c : 4 * c + 4]
        if not _ALLOWED[c].issuperset(own):
            return f"colour {c} on another colour's circle or start field"
        rings.append(_RING.intersection(own))
        goals = [x for x in own if x in _GOALSET[c]]
        if len(goals) != len(set(goals)):
            return "two pawns on a goal circle"
        m1, m2, m3, m4 = _M[c]
        n = (
            0
            if m1 not in own
            else 1
            if m2 not in own
            else 2
            if m3 not in own
            else 3
            if m4 not in own
            else 4
        )
        if n < prev_locked[c]:
            return f"a locked pawn of colour {c} moved"
        prev_locked[c] = n
    r0, r1, r2, r3 = rings
    if len(r0 | r1 | r2 | r3) != len(r0) + len(r1) + len(r2) + len(r3):
        return "two colours on one field"
    return None


def rulebook_problem_after(record: dict) -> str | None:
    """Replay a rulebook record entry by entry; None if every position is sound.

    After every entry: the rulebook board's invariants (B7, via the engine's
    own check) and F2, a pawn in House never leaves it.
    """
    from games.engine.flow import read_record
    from games.engine.rulebook_board import RB_IS_HOUSE, rulebook_problem

    _, game, moves = read_record(record, None)
    in_house = [0, 0, 0, 0]
    for index, text in enumerate(moves):
        game.entry(text, moves, index)
        locs = game.board.locs
        found = rulebook_problem(locs)
        if found is not None:
            return f"entry {index}: {found[1]}"
        for c in range(4):
            n = sum(1 for x in locs[4 * c : 4 * c + 4] if RB_IS_HOUSE[x])
            if n < in_house[c]:
                return f"entry {index}: a pawn of colour {c} left House"
            in_house[c] = n
    return None
