"""DUO moves as text (docs/rulesets/duo.md "Notation")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .board import AREAS, STEPS, Layout, layout, syntax_error

# --- moves ---------------------------------------------------------------------


@dataclass(frozen=True)
class DuoMove:
    """A DUO move: ``1: in YK``, ``5: YK3+5``, ``2: RO4-2``, ``4: YK3+1 YK5+3``,
    ``9: YK3<>RO7``. Steps name pawns by location id (of the ruleset's layout)."""

    card: str
    text: str
    area: int = -1
    steps: tuple[tuple[int, int], ...] = ()
    swap: tuple[int, int] | None = None

    def __str__(self) -> str:
        return self.text


_STEP = re.compile(r"^((?:YK|RK|YO|RO)(?:H|S|M[1-3]|\d{1,2}))([+-])(\d{1,2})$")
_LOC = r"(?:YK|RK|YO|RO)(?:H|S|M[1-3]|\d{1,2})"
"""Any location, as in a step: a swap naming a home area or a goal circle is a readable move
that the 9 refuses (C5), not an unreadable one."""
_SWAP = re.compile(rf"^({_LOC})<>({_LOC})$")


def step_text(lay: Layout, lid: int, n: int) -> str:
    return f"{lay.codes[lid]}{'+' if n > 0 else '-'}{abs(n)}"


_MOVES: dict[tuple[str, int], DuoMove] = {}


def parse_move(text: str, fields: int) -> DuoMove:
    """Read a DUO move (docs/rulesets/duo.md "Notation"); raises NotationError."""
    key = (text, fields) if isinstance(text, str) else None
    known = _MOVES.get(key) if key is not None else None
    if known is not None:
        return known
    move = _parse_move(text, fields)
    if key is not None:
        if len(_MOVES) > 100_000:
            _MOVES.clear()
        _MOVES[key] = move
    return move


def _parse_move(text: str, fields: int) -> DuoMove:
    lay = layout(fields)
    if not isinstance(text, str):
        raise syntax_error(
            text, "a move is a text like '5: YK3+5'", "et træk skrives som '5: YK3+5'"
        )
    parts = text.split()
    if len(parts) < 2 or not parts[0].endswith(":"):
        raise syntax_error(text, "expected 'card: action'", "forventede 'kort: handling'")
    card = parts[0][:-1]
    if card not in STEPS and card != "4":
        raise syntax_error(
            text,
            f"unknown DUO card {card!r} (1 2 3 4 5 6 7 8 9 10 12)",
            f"ukendt DUO-kort {card!r} (1 2 3 4 5 6 7 8 9 10 12)",
        )
    acts = parts[1:]
    if len(acts) == 2 and acts[0] == "in" and acts[1] in AREAS:
        return DuoMove(card, f"{card}: in {acts[1]}", area=AREAS.index(acts[1]))
    if len(acts) == 1 and "<>" in acts[0]:
        m = _SWAP.match(acts[0])
        if m is None or m[1] not in lay.lid or m[2] not in lay.lid:
            raise syntax_error(text, "a swap is written 'A<>B'", "et byt skrives 'A<>B'")
        x, y = sorted((lay.lid[m[1]], lay.lid[m[2]]))
        return DuoMove(card, f"{card}: {lay.codes[x]}<>{lay.codes[y]}", swap=(x, y))
    steps = []
    for act in acts:
        m = _STEP.match(act)
        if m is None or m[1] not in lay.lid:
            raise syntax_error(
                text,
                f"cannot read {act!r} (write e.g. YK3+5, RO4-2 or 'in YK')",
                f"kan ikke læse {act!r} (skriv f.eks. YK3+5, RO4-2 eller 'in YK')",
            )
        n = int(m[3])
        steps.append((lay.lid[m[1]], n if m[2] == "+" else -n))
    text_out = f"{card}: " + " ".join(step_text(lay, lid, n) for lid, n in steps)
    return DuoMove(card, text_out, steps=tuple(steps))
