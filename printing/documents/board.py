"""A small board diagram: the ring of 56 fields and 4 start fields, start
circles outside, goal circles inside, pawns as coloured dots.

Drawn straight onto a canvas, so it works as a platypus flowable and anywhere
else a canvas is at hand.
"""

from __future__ import annotations

import math
from collections import Counter

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from printing.documents.base import SEAT_COLOURS
from printing.documents.board_duo import draw_duo_board
from printing.documents.types import SEAT_ORDER

RING_SLOTS = 60  # 4 × (start field + 14 numbered fields), RULES.md B1


def _angle(slot: float) -> float:
    # Yellow's start field at the bottom; clockwise on the page.
    return math.radians(-90 - slot * 360 / RING_SLOTS)


def draw_board(
    c: Canvas, position: dict[str, list[str]], *, x: float, y: float, size: float
) -> None:
    """Draw ``position`` (NOTATION.md) in a ``size`` square with lower-left ``(x, y)``."""
    cx, cy = x + size / 2, y + size / 2
    radius = size * 0.38
    dot = max(1.6, radius * math.sin(math.pi / RING_SLOTS) * 0.9)
    occupants: dict[str, Counter[str]] = {}
    for colour, locations in position.items():
        for location in locations:
            occupants.setdefault(location, Counter())[colour] += 1

    def spot(px: float, py: float, location: str, outline: colors.Color) -> None:
        here = occupants.get(location)
        c.setStrokeColor(outline)
        if here:
            colour, count = here.most_common(1)[0]
            c.setFillColor(SEAT_COLOURS.get(colour, colors.black))
            c.circle(px, py, dot, stroke=1, fill=1)
            if count > 1:
                c.setFillColor(colors.white)
                c.setFont("Helvetica-Bold", dot * 1.5)
                c.drawCentredString(px, py - dot * 0.5, str(count))
        else:
            c.setFillColor(colors.white)
            c.circle(px, py, dot, stroke=1, fill=1)

    c.saveState()
    c.setLineWidth(0.4)
    for slot in range(RING_SLOTS):
        colour = SEAT_ORDER[slot // 15]
        number = slot % 15
        location = f"{colour}S" if number == 0 else f"{colour}{number}"
        a = _angle(slot)
        outline = SEAT_COLOURS[colour] if number == 0 else colors.grey
        spot(cx + radius * math.cos(a), cy + radius * math.sin(a), location, outline)
    for index, colour in enumerate(SEAT_ORDER):
        a = _angle(index * 15)
        for m in range(4, 0, -1):  # M4 outermost, M1 innermost (B3)
            r = radius - (5 - m) * dot * 2.3
            spot(cx + r * math.cos(a), cy + r * math.sin(a), f"{colour}M{m}", SEAT_COLOURS[colour])
        home = occupants.get(f"{colour}H", Counter())[colour]
        r = radius + dot * 3.2
        hx, hy = cx + r * math.cos(a), cy + r * math.sin(a)
        c.setStrokeColor(SEAT_COLOURS[colour])
        c.setFillColor(SEAT_COLOURS[colour] if home else colors.white)
        c.circle(hx, hy, dot * 1.4, stroke=1, fill=1)
        c.setFillColor(colors.white if home else colors.grey)
        c.setFont("Helvetica-Bold", dot * 1.6)
        c.drawCentredString(hx, hy - dot * 0.55, str(home))
    c.restoreState()


class BoardFlowable(Flowable):  # type: ignore[misc]  # reportlab ships no type hints
    """A board diagram with a caption under it: the four-seat board, or the DUO
    board when the position names DUO's areas (``YK`` …; ``fields`` is its B2)."""

    def __init__(
        self,
        position: dict[str, list[str]],
        caption: str,
        size: float = 150,
        *,
        fields: int = 14,
    ) -> None:
        super().__init__()
        self.position = position
        self.caption = caption
        self.size = size
        self.fields = fields

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.size, self.size + 12

    def draw(self) -> None:
        if "YK" in self.position:
            draw_duo_board(self.canv, self.position, x=0, y=12, size=self.size, fields=self.fields)
        else:
            draw_board(self.canv, self.position, x=0, y=12, size=self.size)
        self.canv.setFont("Helvetica", 7.5)
        self.canv.drawCentredString(self.size / 2, 2, self.caption)
