"""Score sheets: one page per table, A4 or A5 (the A4 layout scaled by 1/√2).

Everything that is the same on every page (labels, boxes, lines) is drawn
once per document into a form XObject and placed on each page; a page then
only adds its own names, numbers, times and QR code. That keeps 100 sheets
well inside the benchmark budget (see ``manage.py bench_printing``).
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Sequence

from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from printing.documents.base import (
    LIGHT_GREY,
    PAGE_SIZES,
    SEAT_COLOURS,
    ProgressCallback,
    local_date,
    local_time,
    printable,
    seat_name,
    side_name,
)
from printing.documents.qr import qr_pdf_operators
from printing.documents.types import PairInfo, ScoreSheet, TableKind

W, H = A4
M = 34.0
QR_SIZE = 118.0
BOX_W = (W - 2 * M - 12) / 2


def _form_name(table: TableKind) -> str:
    """The page's fixed drawing, one per kind of table (its seats and pawns)."""
    return f"score_sheet_static_{len(table.seats)}_{table.pawns_per_side}"


JUDGE_LINES = 5
HASH_BOXES = 8


def build_score_sheets(
    sheets: Sequence[ScoreSheet],
    *,
    page_size: str = "A4",
    lang: str = "da",
    on_progress: ProgressCallback | None = None,
) -> bytes:
    """One PDF with a score sheet per entry of ``sheets``, in ``lang``."""
    if page_size not in PAGE_SIZES:
        raise ValueError(f"unknown page size {page_size!r}")
    size = PAGE_SIZES[page_size]
    scale = size[0] / W
    buffer = io.BytesIO()
    with translation.override(lang):
        canvas = Canvas(buffer, pagesize=size, pageCompression=1)
        canvas.setTitle(_("Score sheets"))
        canvas.setAuthor("DM i Partners")
        labels = _static_labels()
        for table in dict.fromkeys(sheet.seating for sheet in sheets):
            # Drawn in A4 units, also on A5.
            canvas.beginForm(_form_name(table), upperx=W, uppery=H)
            _draw_static(canvas, labels, table=table)
            canvas.endForm()
        total = len(sheets)
        for done, sheet in enumerate(sheets, start=1):
            if scale != 1:
                canvas.scale(scale, scale)
            canvas.doForm(_form_name(sheet.seating))
            _draw_sheet(canvas, sheet, labels)
            canvas.showPage()
            if on_progress is not None:
                on_progress(done, total)
        canvas.save()
    return buffer.getvalue()


def _static_labels() -> dict[str, str]:
    """Labels looked up once per document (gettext per page adds up)."""
    return {
        "seat_Y": seat_name("Y"),
        "seat_R": seat_name("R"),
        "seat_B": seat_name("B"),
        "seat_G": seat_name("G"),
        "minutes": _("+%(minutes)d min"),
        "round": _("Round %(number)d"),
        "table": _("Table"),
        "first_dealer": _("First dealer:"),
        "code": _("Code"),
        "no_qr": _("The table link is printed only on organisers' copies."),
    }


def _draw_static(c: Canvas, labels: dict[str, str], *, table: TableKind) -> None:
    c.setFont("Helvetica", 10)
    c.drawString(M, 752, labels["table"])
    c.setFont("Helvetica", 7.5)
    qr_left = W - M - QR_SIZE - 8
    c.drawRightString(qr_left, 790, _("Scan the code to log the moves,"))
    c.drawRightString(qr_left, 780, _("or open the address below the code"))
    c.drawRightString(qr_left, 770, _("and type the code."))
    for index, team in enumerate(("YB", "RG")):
        _draw_pair_box(c, M + index * (BOX_W + 12), team, table=table)
    c.setFont("Helvetica-Bold", 10)
    c.drawString(M, 524, labels["first_dealer"])
    _draw_time_row(c)
    _draw_result_box(c, table=table)
    _draw_judge_box(c)
    _draw_signatures(c, singles=table.singles)
    _draw_hash_box(c)
    c.setFont("Helvetica-Oblique", 7.5)
    c.drawString(
        M,
        26,
        _(
            "The move log is checked by the rules engine; the result is confirmed on this sheet "
            "and on the table page."
        ),
    )


def _draw_pair_box(c: Canvas, x: float, team: str, *, table: TableKind) -> None:
    c.setLineWidth(1)
    c.setStrokeColor(colors.black)
    c.roundRect(x, 540, BOX_W, 112, 6, stroke=1, fill=0)
    c.setFont("Helvetica-Bold", 12)
    c.drawString(x + 8, 636, side_name(team, singles=table.singles))
    for row, seat in enumerate(table.seats_of(team)):
        y = 590 - row * 22
        c.setFillColor(SEAT_COLOURS[seat])
        c.rect(x + 8, y, 11, 11, stroke=1, fill=1)
        c.setFillColor(colors.black)
        c.setFont("Helvetica", 9)
        c.drawString(x + 24, y + 2, f"{seat_name(seat)} ({seat})")


def _draw_time_row(c: Canvas, top: float = 506) -> None:
    c.setFont("Helvetica-Bold", 11)
    c.drawString(M, top - 2, _("Time"))
    box_top = top - 10
    width = (W - 2 * M) / 3
    c.setLineWidth(0.8)
    c.rect(M, box_top - 40, W - 2 * M, 40)
    labels = [_("Start"), _("Judge alert"), _("Time limit")]
    for i, label in enumerate(labels):
        if i:
            c.line(M + i * width, box_top - 40, M + i * width, box_top)
        c.setFont("Helvetica", 8)
        c.drawString(M + i * width + 6, box_top - 11, label)
        c.setStrokeColor(colors.grey)
        c.line(M + i * width + 60, box_top - 32, M + (i + 1) * width - 8, box_top - 32)
        c.setStrokeColor(colors.black)


def _draw_result_box(c: Canvas, top: float = 442, *, table: TableKind) -> None:
    c.setFont("Helvetica-Bold", 11)
    c.drawString(M, top, _("Result"))
    rows = [
        _("Winner (tick one)"),
        # The pawns a side brings: 8 for a pair, 6 for a DUO player (S2).
        _("Locked pawns (0–%(pawns)s)") % {"pawns": table.pawns_per_side},
        _("Remaining distance (only if stopped on time)"),
        _("Stopped at the time limit (tick)"),
    ]
    label_w = 230
    col_w = (W - 2 * M - label_w) / 2
    row_h = 24
    table_top = top - 8
    c.setFillColor(LIGHT_GREY)
    c.rect(M, table_top - 18, W - 2 * M, 18, stroke=0, fill=1)
    c.setFillColor(colors.black)
    c.setFont("Helvetica-Bold", 9)
    for i, team in enumerate(("YB", "RG")):
        c.drawCentredString(
            M + label_w + col_w * (i + 0.5), table_top - 13, side_name(team, singles=table.singles)
        )
    c.setLineWidth(0.8)
    height = 18 + row_h * len(rows)
    c.rect(M, table_top - height, W - 2 * M, height)
    c.line(M + label_w, table_top - height, M + label_w, table_top)
    # The last row (stopped on time) is one box for the whole game.
    c.line(M + label_w + col_w, table_top - height + row_h, M + label_w + col_w, table_top)
    c.setFont("Helvetica", 9)
    for i, label in enumerate(rows):
        y = table_top - 18 - row_h * (i + 1)
        c.line(M, y + row_h, W - M, y + row_h)
        c.drawString(M + 6, y + 8, label)
        if i in (0, 3):
            for col in range(2 if i == 0 else 1):
                cx = M + label_w + col_w * (col + 0.5 if i == 0 else 1) - 6
                c.rect(cx, y + 6, 12, 12)


def _draw_judge_box(c: Canvas, top: float = 300) -> None:
    c.setFont("Helvetica-Bold", 11)
    c.drawString(M, top, _("Judge calls and rulings"))
    columns = [(_("Time"), 0), (_("Rule"), 55), (_("Ruling and reason"), 110), (_("Judge"), 420)]
    table_top = top - 8
    c.setFillColor(LIGHT_GREY)
    c.rect(M, table_top - 16, W - 2 * M, 16, stroke=0, fill=1)
    c.setFillColor(colors.black)
    c.setFont("Helvetica-Bold", 8.5)
    for label, offset in columns:
        c.drawString(M + offset + 4, table_top - 11, label)
    c.setLineWidth(0.5)
    c.setStrokeColor(colors.grey)
    for i in range(JUDGE_LINES + 1):
        y = table_top - 16 - 20 * i
        c.line(M, y, W - M, y)
    bottom = table_top - 16 - 20 * JUDGE_LINES
    for _label, offset in columns[1:]:
        c.line(M + offset, bottom, M + offset, table_top)
    c.setStrokeColor(colors.black)


def _draw_signatures(c: Canvas, y: float = 120, *, singles: bool) -> None:
    c.setFont("Helvetica", 8.5)
    for i, team in enumerate(("YB", "RG")):
        x = M + i * (BOX_W + 12)
        c.line(x, y, x + BOX_W, y)
        c.drawString(
            x, y - 11, _("Signature %(team)s") % {"team": side_name(team, singles=singles)}
        )


def _draw_hash_box(c: Canvas, y: float = 58) -> None:
    c.setFont("Helvetica-Bold", 9)
    c.drawString(M, y + 26, _("Final log hash"))
    c.setFont("Helvetica", 7.5)
    c.drawString(M, y + 16, _("The 8 characters shown on the table page when the game ends."))
    for i in range(HASH_BOXES):
        c.rect(M + i * 20, y - 8, 18, 20)


def _fit(c: Canvas, text: str, x: float, y: float, font: str, size: float, width: float) -> None:
    """Draw ``text`` at ``(x, y)``, shrinking the font so it fits ``width``."""
    text = printable(text)
    text_width = stringWidth(text, font, size)
    if text_width > width:
        size = max(5.0, size * width / text_width)
    c.setFont(font, size)
    c.drawString(x, y, text)


def _draw_sheet(c: Canvas, sheet: ScoreSheet, labels: dict[str, str]) -> None:
    text_width = W - 2 * M - QR_SIZE - 10
    _fit(c, sheet.tournament, M, 805, "Helvetica-Bold", 15, text_width)
    details = " · ".join(part for part in (local_date(sheet.date), sheet.venue) if part)
    if details:
        c.setFont("Helvetica", 9)
        c.drawString(M, 791, printable(details))
    heading = labels["round"] % {"number": sheet.round_number}
    if sheet.round_title:
        heading += f" — {sheet.round_title}"
    c.setFont("Helvetica-Bold", 13)
    c.drawString(M, 770, heading)
    c.setFont("Helvetica-Bold", 40)
    c.drawString(M, 712, str(sheet.table_number))
    _draw_access(c, sheet, labels)
    for index, (team, pair) in enumerate((("YB", sheet.pair_yb), ("RG", sheet.pair_rg))):
        _draw_pair(c, M + index * (BOX_W + 12), team, pair)
    dealer_x = M + stringWidth(labels["first_dealer"], "Helvetica-Bold", 10) + 6
    dealer = sheet.first_dealer
    c.setFillColor(SEAT_COLOURS.get(dealer, colors.black))
    c.rect(dealer_x, 522, 10, 10, stroke=1, fill=1)
    c.setFillColor(colors.black)
    c.setFont("Helvetica", 10)
    dealer_name = labels.get(f"seat_{dealer}", dealer)
    dealer_line = f"{dealer_name} ({dealer}) — {printable(sheet.seat_player(dealer))}"
    c.drawString(dealer_x + 15, 524, dealer_line)
    _draw_times(c, sheet, labels)


def _draw_access(c: Canvas, sheet: ScoreSheet, labels: dict[str, str]) -> None:
    qr_x, qr_y = W - M - QR_SIZE, H - M - QR_SIZE
    centre = qr_x + QR_SIZE / 2
    if not sheet.table_url:
        c.setFont("Helvetica-Oblique", 7)
        c.drawCentredString(centre, qr_y + QR_SIZE / 2, labels["no_qr"][:60])
        return
    c.addLiteral(qr_pdf_operators(sheet.table_url, x=qr_x, y=qr_y, size=QR_SIZE))
    c.setFont("Helvetica-Bold", 12)
    c.drawCentredString(centre, qr_y - 10, f"{labels['code']}: {sheet.short_code}")
    address = sheet.table_url.rsplit("/t/", 1)[0] + "/t/"
    c.setFont("Helvetica", 7)
    c.drawRightString(W - M, qr_y - 20, address)


def _draw_pair(c: Canvas, x: float, team: str, pair: PairInfo) -> None:
    heading = f"#{pair.start_number} {pair.name}".strip()
    _fit(c, heading, x + 8, 616, "Helvetica-Bold", 10, BOX_W - 16)
    for row, player in enumerate(pair.player_names):
        _fit(c, player, x + 90, 592 - row * 22, "Helvetica-Bold", 11, BOX_W - 98)
    if pair.club:
        _fit(c, pair.club, x + 8, 548, "Helvetica", 8, BOX_W - 16)


def _draw_times(c: Canvas, sheet: ScoreSheet, labels: dict[str, str]) -> None:
    width = (W - 2 * M) / 3
    marks = [
        ("", 0),
        (labels["minutes"] % {"minutes": sheet.alert_minutes}, sheet.alert_minutes),
        (labels["minutes"] % {"minutes": sheet.limit_minutes}, sheet.limit_minutes),
    ]
    for i, (label, minutes) in enumerate(marks):
        x = M + i * width
        if label:
            c.setFont("Helvetica-Bold", 8)
            c.drawRightString(x + width - 6, 485, label)
        if sheet.started_at is not None:
            moment = sheet.started_at + datetime.timedelta(minutes=minutes)
            c.setFont("Helvetica-Bold", 12)
            c.drawString(x + 64, 466, local_time(moment))
