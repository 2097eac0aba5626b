"""A small Partners DUO board diagram (docs/rulesets/duo.md B1–B3).

The same ring as the four-seat diagram (``board.py``), with the four home
areas YK RK YO RO in the seats' quarters clockwise from the bottom, three
goal circles each (M3 outermost) and the home area outside the start field,
as the browser draws it (static/js/board.js). A knob pawn (K) is round, a
hole pawn (O) square with a hole; every pawn carries its player's letter.
Print is often black and white: yellow is light with dark ink, red dark with
white ink, so the players differ in grey as well as by letter and shape.
"""

from __future__ import annotations

import math
from collections import Counter

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from printing.documents.base import SEAT_COLOURS

AREAS = ("YK", "RK", "YO", "RO")  # clockwise from the bottom quarter (B1)
GOALS = 3  # goal circles per area (F1)
INK = {"Y": colors.black, "R": colors.white}  # the letter on a pawn of each player
# Outlines of an area's own circles: yellow darkened so they still show in grey.
OUTLINE = {"Y": colors.HexColor("#9c7c00"), "R": SEAT_COLOURS["R"]}
FIELD_OUTLINE = colors.grey


def _player(area: str) -> str:
    return area[0]


def _pawn(c: Canvas, px: float, py: float, dot: float, area: str) -> None:
    """One pawn of ``area``: round (knob) or square with a hole, with its letter."""
    player = _player(area)
    c.setStrokeColor(colors.black)
    c.setFillColor(SEAT_COLOURS[player])
    if area.endswith("K"):
        c.circle(px, py, dot, stroke=1, fill=1)
        c.setFillColor(INK[player])
    else:
        side = dot * 2.05
        c.rect(px - side / 2, py - side / 2, side, side, stroke=1, fill=1)
        c.setFillColor(colors.white)
        c.circle(px, py, dot * 0.56, stroke=0, fill=1)
        c.setFillColor(colors.black)
    size = dot * (1.25 if area.endswith("K") else 1.0)
    c.setFont("Helvetica-Bold", size)
    c.drawCentredString(px, py - size * 0.35, player)


def _home(c: Canvas, px: float, py: float, size: float, area: str, count: int) -> None:
    """An area's home outside its start field: its shape, filled when it holds pawns."""
    player = _player(area)
    c.setStrokeColor(colors.black if count else OUTLINE[player])
    c.setFillColor(SEAT_COLOURS[player] if count else colors.white)
    if area.endswith("K"):
        c.circle(px, py, size, stroke=1, fill=1)
    else:
        c.rect(px - size, py - size, size * 2, size * 2, stroke=1, fill=1)
    c.setFillColor(INK[player] if count else colors.grey)
    c.setFont("Helvetica-Bold", size * 1.15)
    c.drawCentredString(px, py - size * 0.4, str(count))


def draw_duo_board(
    c: Canvas,
    position: dict[str, list[str]],
    *,
    x: float,
    y: float,
    size: float,
    fields: int = 14,
) -> None:
    """Draw a DUO ``position`` (``DuoPosition.to_json``) in a ``size`` square with
    lower-left ``(x, y)``; ``fields`` is the ruleset's ``board_fields`` (B2)."""
    slots = 4 * (fields + 1)
    cx, cy = x + size / 2, y + size / 2
    radius = size * 0.37
    dot = max(1.6, radius * math.sin(math.pi / slots) * 0.95)
    occupants: dict[str, Counter[str]] = {}
    for area, locations in position.items():
        for location in locations:
            occupants.setdefault(location, Counter())[area] += 1

    def angle(slot: float) -> float:
        # YK's start field at the bottom; clockwise on the page, as board.py.
        return math.radians(-90 - slot * 360 / slots)

    def at(r: float, a: float) -> tuple[float, float]:
        return cx + r * math.cos(a), cy + r * math.sin(a)

    def spot(r: float, a: float, location: str, outline: colors.Color) -> None:
        px, py = at(r, a)
        here = occupants.get(location)
        c.setStrokeColor(outline)
        c.setFillColor(colors.white)
        c.circle(px, py, dot, stroke=1, fill=1)
        if not here:
            return
        area, count = here.most_common(1)[0]
        _pawn(c, px, py, dot, area)
        if count > 1:  # own pawns of one area join on a field (T2)
            c.setFillColor(colors.black)
            c.setFont("Helvetica-Bold", dot * 1.2)
            nx, ny = at(r + dot * 2.1, a)
            c.drawCentredString(nx, ny - dot * 0.4, f"{count}")

    c.saveState()
    c.setLineWidth(0.4)
    for index, area in enumerate(AREAS):
        tint = OUTLINE[_player(area)]
        start = index * (fields + 1)
        spot(radius, angle(start), f"{area}S", tint)
        for number in range(1, fields + 1):
            spot(radius, angle(start + number), f"{area}{number}", FIELD_OUTLINE)
        for m in range(GOALS, 0, -1):  # M3 outermost, M1 innermost (B3)
            spot(radius - (GOALS + 1 - m) * dot * 2.3, angle(start), f"{area}M{m}", tint)
        hx, hy = at(radius + dot * 4.3, angle(start))
        _home(c, hx, hy, dot * 1.35, area, occupants.get(f"{area}H", Counter())[area])
        lx, ly = at(radius * 0.55, angle(start + 3.5))
        c.setFillColor(colors.black)
        c.setFont("Helvetica-Bold", dot * 1.8)
        c.drawCentredString(lx, ly - dot * 0.6, area)
    c.restoreState()
