"""The final results: the champions, the podium and the final standings. Public."""

from __future__ import annotations

from django.utils import formats, translation
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from printing.documents.base import (
    LIGHT_GREY,
    esc,
    fitted_widths,
    header_cells,
    platypus_pdf,
    styles,
)
from printing.documents.types import FinalLine, FinalStandings

# Portrait A4 between the 14 mm margins of ``platypus_pdf``.
_WIDTH = 515.0
_MEDALS = {1: "#f4c430", 2: "#c9ced6", 3: "#d9a066"}


def _place(line: FinalLine) -> str:
    return f"{line.place}=" if line.shared else str(line.place)


def _pair(line: FinalLine) -> str:
    return f"#{line.pair.start_number} {esc(line.pair.label)}"


def build_final_results(final: FinalStandings, *, lang: str = "da") -> bytes:
    with translation.override(lang):
        st = styles()
        title = f"{final.tournament} — {_('Final results')}"
        story: list = [Paragraph(esc(title), st["title"])]
        when = [formats.date_format(final.date, "DATE_FORMAT") if final.date else "", final.venue]
        if any(when):
            story.append(Paragraph(esc(" · ".join(w for w in when if w)), st["body"]))
        story.append(Spacer(0, 8))
        if not final.finished:
            story.append(Paragraph(_("The event is not finished yet."), st["body"]))
            return platypus_pdf(story, title=title, footer=title)
        story += _champions(final, st) + _podium(final, st)
        story += [Spacer(0, 10), Paragraph(_("Final standings"), st["h2"]), _standings(final, st)]
        return platypus_pdf(story, title=title, footer=title)


def _champions(final: FinalStandings, st: dict) -> list:
    first = [line for line in final.lines if line.place == 1]
    heading = _("Shared first place") if len(first) > 1 else _("Champions")
    name = ParagraphStyle("champion", parent=st["title"], fontSize=20, leading=24, spaceAfter=2)
    centred = ParagraphStyle("champions", parent=st["h2"], alignment=TA_CENTER)
    return [
        Paragraph(esc(heading.upper()), centred),
        *(Paragraph(esc(line.pair.label), name) for line in first),
        Spacer(0, 6),
    ]


def _podium(final: FinalStandings, st: dict) -> list:
    rows = [
        [Paragraph(f"<b>{_place(line)}</b>", st["h2"]), Paragraph(_pair(line), st["body"]),
         Paragraph(esc(line.how), st["small"])]
        for line in final.lines if line.place <= 3
    ]  # fmt: skip
    table = Table(rows, colWidths=[40, 300, 175])
    style = [
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, -1), 0.4, colors.grey),
    ]
    for k, line in enumerate(line for line in final.lines if line.place <= 3):
        style.append(("BACKGROUND", (0, k), (0, k), colors.HexColor(_MEDALS[line.place])))
    table.setStyle(TableStyle(style))
    return [table]


def _standings(final: FinalStandings, st: dict) -> Table:
    header = [_("Place"), _("Player") if final.singles else _("Pair"), _("Decided by")]
    data: list[list] = [header_cells(header)]
    for line in final.lines:
        data.append(
            [_place(line), Paragraph(_pair(line), st["cell"]), Paragraph(esc(line.how), st["cell"])]
        )
    widths = fitted_widths(header, total=_WIDTH, flexible={1: 2.0, 2: 1.0}, minimum={0: 36})
    table = Table(data, colWidths=widths, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("BACKGROUND", (0, 0), (-1, 0), LIGHT_GREY),
                ("FONTSIZE", (0, 1), (-1, -1), 8.5),
                ("LINEBELOW", (0, 0), (-1, -1), 0.4, colors.grey),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return table
