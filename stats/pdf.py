"""Statistics as a PDF: the figures and the same pygal pictures as the pages.

A pure function from plain data to PDF bytes, like the documents in
``printing.documents``; svglib turns each SVG into a reportlab drawing, so
the pictures stay vector graphics on paper.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from reportlab.graphics.shapes import Drawing
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table, TableStyle
from svglib.svglib import svg2rlg

from printing.documents.base import LIGHT_GREY, esc, platypus_pdf, styles

WIDTH = 180 * mm


def svg_drawing(svg: str, *, width: float = WIDTH) -> Drawing:
    """The SVG as a reportlab drawing scaled to ``width`` points."""
    drawing = svg2rlg(io.BytesIO(svg.encode()))
    if drawing is None or not drawing.width:
        raise ValueError("not an SVG picture")
    scale = width / drawing.width
    drawing.width, drawing.height = drawing.width * scale, drawing.height * scale
    drawing.scale(scale, scale)
    return drawing


def build_statistics_pdf(
    *,
    title: str,
    footer: str,
    figures: Sequence[tuple[str, str]],
    charts: Sequence[tuple[str, str]],
) -> bytes:
    """A title, a table of (label, value) figures, then each (caption, SVG) picture."""
    st = styles()
    story: list[object] = [Paragraph(esc(title), st["title"]), Spacer(1, 4 * mm)]
    if figures:
        table = Table(
            [
                [Paragraph(esc(label), st["cell"]), Paragraph(esc(value), st["cell"])]
                for label, value in figures
            ],
            colWidths=[110 * mm, 60 * mm],
        )
        table.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, -1), 0.4, LIGHT_GREY)]))
        story += [table, Spacer(1, 6 * mm)]
    for caption, svg in charts:
        # A caption never ends a page apart from its picture.
        story += [
            KeepTogether([Paragraph(esc(caption), st["h2"]), svg_drawing(svg)]),
            Spacer(1, 4 * mm),
        ]
    return platypus_pdf(story, title=title, footer=footer)
