"""Pairings for the notice board: by table, then every player A–Z ("where do I sit?").

Public: the data carries no table links, so this document never holds a token.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.platypus import PageBreak, Paragraph, Spacer, Table, TableStyle

from printing.documents.base import (
    LIGHT_GREY,
    SEAT_COLOURS,
    danish_sort_key,
    esc,
    fitted_widths,
    header_cells,
    platypus_pdf,
    round_heading,
    seat_name,
    styles,
    team_name,
)
from printing.documents.types import TEAM_SEATS, PairInfo, PairingsList


@dataclass(frozen=True)
class SeatLine:
    player: str
    table: int | None  # None: the pair has a bye
    seat: str
    partner: str
    start_number: int


def seat_lines(pairings: PairingsList) -> list[SeatLine]:
    """Every player of the round with their table and seat, in Danish alphabetical order."""
    lines: list[SeatLine] = []
    for row in pairings.rows:
        for team, pair in (("YB", row.pair_yb), ("RG", row.pair_rg)):
            first, second = TEAM_SEATS[team]
            lines.append(
                SeatLine(pair.player_1, row.table_number, first, pair.player_2, pair.start_number)
            )
            lines.append(
                SeatLine(pair.player_2, row.table_number, second, pair.player_1, pair.start_number)
            )
    for pair in pairings.byes:
        lines.append(SeatLine(pair.player_1, None, "", pair.player_2, pair.start_number))
        lines.append(SeatLine(pair.player_2, None, "", pair.player_1, pair.start_number))
    return sorted(lines, key=lambda line: (danish_sort_key(line.player), line.start_number))


def build_pairings_list(pairings: PairingsList, *, lang: str = "da") -> bytes:
    with translation.override(lang):
        st = styles()
        round_text = round_heading(pairings.round_number, pairings.round_title)
        heading = f"{pairings.tournament} — {round_text}"
        story: list = [Paragraph(esc(heading), st["title"])]
        if not pairings.published:
            story.append(Paragraph(_("Draft — not yet published."), st["body"]))
        story += [Paragraph(_("Pairings by table"), st["h2"]), _by_table(pairings, st)]
        if pairings.byes:
            byes = ", ".join(f"#{p.start_number} {p.label}" for p in pairings.byes)
            story.append(Spacer(0, 6))
            story.append(Paragraph(f"<b>{_('Bye')}:</b> {esc(byes)}", st["body"]))
        story += [PageBreak(), Paragraph(_("Where do I sit? Players A–Z"), st["h2"])]
        story.append(_alphabetical(pairings, st))
        return platypus_pdf(story, title=heading, footer=heading)


def _pair_cell(pair: PairInfo, team: str, st: dict) -> Paragraph:
    first, second = TEAM_SEATS[team]
    name = (
        f"<b>#{pair.start_number} {esc(pair.name)}</b><br/>"
        if pair.name
        else (f"<b>#{pair.start_number}</b><br/>")
    )
    return Paragraph(
        f"{name}{_seat_mark(first)} {esc(pair.player_1)}<br/>{_seat_mark(second)} "
        f"{esc(pair.player_2)}",
        st["cell"],
    )


def _seat_mark(seat: str) -> str:
    colour = SEAT_COLOURS[seat].hexval()[2:]
    # ZapfDingbats "n" is a filled square: Helvetica has no such glyph.
    return f'<font name="ZapfDingbats" color="#{colour}">n</font> {seat_name(seat)}:'


def _by_table(pairings: PairingsList, st: dict) -> Table:
    header = [_("Table"), team_name("YB"), team_name("RG"), _("First dealer")]
    data: list[list] = [header_cells(header, size=9)]
    for row in sorted(pairings.rows, key=lambda r: r.table_number):
        data.append(
            [
                Paragraph(f"<b>{row.table_number}</b>", st["h2"]),
                _pair_cell(row.pair_yb, "YB", st),
                _pair_cell(row.pair_rg, "RG", st),
                Paragraph(seat_name(row.first_dealer), st["cell"]) if row.first_dealer else "",
            ]
        )
    widths = fitted_widths(
        header, total=_WIDTH, flexible={1: 1.0, 2: 1.0}, size=9, minimum={0: 42, 3: 58}
    )
    table = Table(data, colWidths=widths, repeatRows=1)
    table.setStyle(_grid_style())
    return table


# Portrait A4 between the 14 mm margins of ``platypus_pdf``, less a little air.
_WIDTH = 520.0


def _alphabetical(pairings: PairingsList, st: dict) -> Table:
    header = [_("Player"), _("Table"), _("Seat"), _("Partner")]
    data: list[list] = [header_cells(header, size=9)]
    for line in seat_lines(pairings):
        table = str(line.table) if line.table is not None else _("Bye")
        seat = seat_name(line.seat) if line.seat else ""
        data.append(
            [
                Paragraph(esc(line.player), st["cell"]),
                Paragraph(f"<b>{table}</b>", st["cell"]),
                Paragraph(seat, st["cell"]),
                Paragraph(esc(line.partner), st["cell"]),
            ]
        )
    widths = fitted_widths(
        header, total=500, flexible={0: 1.0, 3: 1.0}, size=9, minimum={1: 50, 2: 70}
    )
    table = Table(data, colWidths=widths, repeatRows=1)
    table.setStyle(_grid_style())
    return table


def _grid_style() -> TableStyle:
    return TableStyle(
        [
            ("BACKGROUND", (0, 0), (-1, 0), LIGHT_GREY),
            ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
            ("FONTSIZE", (0, 0), (-1, 0), 9),
            ("LINEBELOW", (0, 0), (-1, -1), 0.4, colors.grey),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]
    )
