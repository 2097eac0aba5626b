"""What every document shares: colours, names of seats and teams, times, layout."""

from __future__ import annotations

import datetime
import io
import unicodedata
from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import formats
from django.utils.translation import gettext as _
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, A5
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph, SimpleDocTemplate

# Plain binary (zlib) streams: reportlab's default ASCII85 armour only makes
# files bigger and, in pure Python, costs a third of a score-sheet batch.
rl_config.useA85 = 0

COPENHAGEN = ZoneInfo("Europe/Copenhagen")
PAGE_SIZES = {"A4": A4, "A5": A5}
SEAT_COLOURS = {
    "Y": colors.HexColor("#e6b800"),
    "R": colors.HexColor("#d32f2f"),
    "B": colors.HexColor("#1e63c6"),
    "G": colors.HexColor("#2e8b3d"),
}
_INVISIBLE = frozenset({"Cc", "Cf"})
LIGHT_GREY = colors.HexColor("#e9e9e9")
MID_GREY = colors.HexColor("#9a9a9a")


def seat_name(seat: str) -> str:
    return {"Y": _("Yellow"), "R": _("Red"), "B": _("Blue"), "G": _("Green")}.get(seat, seat)


def team_name(team: str) -> str:
    return {"YB": _("Yellow/Blue"), "RG": _("Red/Green")}.get(team, team)


def side_name(team: str, *, singles: bool) -> str:
    """A side's name: its two colours in pairs ("Yellow/Blue"), its one in singles ("Yellow")."""
    return seat_name(team[0]) if singles else team_name(team)


def local_time(moment: datetime.datetime | None) -> str:
    return moment.astimezone(COPENHAGEN).strftime("%H:%M") if moment else ""


def local_datetime(moment: datetime.datetime | None) -> str:
    """Date and time in the active language's short format ("26.11.2026 14:30")."""
    if moment is None:
        return ""
    return formats.date_format(moment.astimezone(COPENHAGEN), "SHORT_DATETIME_FORMAT")


def local_date(day: datetime.date | None) -> str:
    """A day in the active language's short format ("26.11.2026")."""
    return formats.date_format(day, "SHORT_DATE_FORMAT") if day else ""


def number_text(value: float) -> str:
    """A number as the active language writes it: "2,5" in Danish, "3" for 3.0."""
    return formats.number_format(f"{value:g}")


def round_heading(round_number: int, round_title: str = "") -> str:
    heading = _("Round %(number)d") % {"number": round_number}
    return f"{heading} — {round_title}" if round_title else heading


def danish_sort_key(text: str) -> str:
    """Sort key placing æ, ø, å after z in that order, as Danish lists do."""
    return (
        text.casefold()
        .replace("aa", "å")
        .replace("æ", "{")  # "{", "|", "}" follow "z" in code-point order
        .replace("ø", "|")
        .replace("å", "}")
    )


def printable(text: str) -> str:
    """``text`` without control and format characters (direction overrides and marks,
    zero-width joiners): reportlab neither reorders text by them nor has glyphs for
    them, and draws each as a black box."""
    return "".join(ch for ch in text if unicodedata.category(ch) not in _INVISIBLE)


def esc(text: str) -> str:
    """``text`` as literal text inside reportlab's Paragraph mini-markup.

    Every text that is not our own markup goes through here before it reaches a
    ``Paragraph``: a name such as ``<img src="/etc/…"/>`` or ``Vejle & Co <Jylland>``
    is then printed as typed, never read as a tag or an entity.
    """
    return printable(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def styles() -> dict[str, ParagraphStyle]:
    sheet = getSampleStyleSheet()
    return {
        "title": ParagraphStyle("title", parent=sheet["Title"], fontSize=18, spaceAfter=4),
        "h2": ParagraphStyle("h2", parent=sheet["Heading2"], fontSize=13, spaceBefore=8),
        "body": ParagraphStyle("body", parent=sheet["BodyText"], fontSize=9.5, leading=12),
        "small": ParagraphStyle("small", parent=sheet["BodyText"], fontSize=8, leading=10),
        "cell": ParagraphStyle("cell", parent=sheet["BodyText"], fontSize=8.5, leading=10.5),
    }


HEADER_FONT = "Helvetica-Bold"
# A table cell's left plus right padding (reportlab's default is 6 points each side).
CELL_PADDING = 12.0


def header_style(size: float = 8.0) -> ParagraphStyle:
    """Column headers: bold, wrapped between words only (a word never splits)."""
    return ParagraphStyle(
        "header", fontName=HEADER_FONT, fontSize=size, leading=size + 1.5, splitLongWords=0
    )


def header_cells(labels: list[str], size: float = 8.0) -> list[Paragraph]:
    style = header_style(size)
    return [Paragraph(esc(label), style) for label in labels]


def fitted_widths(
    labels: list[str],
    *,
    total: float,
    flexible: dict[int, float],
    size: float = 8.0,
    padding: float = CELL_PADDING,
    minimum: dict[int, float] | None = None,
) -> list[float]:
    """Column widths in which no header breaks inside a word.

    Every column is at least as wide as the widest word of its header (and
    ``minimum`` for its content); what is left of ``total`` goes to the
    ``flexible`` columns (index → weight), which hold text that wraps between
    words (names, notes). Translations change the words, so the widths are
    worked out per document language instead of fixed.
    """
    minimum = minimum or {}
    widths = [
        max(
            max((stringWidth(word, HEADER_FONT, size) for word in label.split()), default=0.0)
            + padding,
            minimum.get(k, 0.0),
        )
        for k, label in enumerate(labels)
    ]
    spare = total - sum(widths)
    weight = sum(flexible.values())
    if spare > 0 and weight:
        for k, share in flexible.items():
            widths[k] += spare * share / weight
    return widths


def platypus_pdf(
    story: list[Any], *, title: str, footer: str, pagesize: tuple[float, float] = A4
) -> bytes:
    """Flow ``story`` onto pages with a footer (``footer`` · page n) on each."""
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=pagesize,
        title=title,
        author="DM i Partners",
        leftMargin=14 * mm,
        rightMargin=14 * mm,
        topMargin=14 * mm,
        bottomMargin=16 * mm,
    )
    page_label = _("Page")
    footer = printable(footer)

    def on_page(canvas: Canvas, document: SimpleDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 7.5)
        canvas.setFillColor(MID_GREY)
        canvas.drawString(14 * mm, 9 * mm, footer)
        canvas.drawRightString(pagesize[0] - 14 * mm, 9 * mm, f"{page_label} {document.page}")
        canvas.restoreState()

    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


ProgressCallback = Callable[[int, int], None]
