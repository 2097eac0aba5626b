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
    side_name,
    styles,
)
from printing.documents.types import PairInfo, PairingsList, TableKind


@dataclass(frozen=True)
class SeatLine:
    player: str
    table: int | None  # None: the pair has a bye
    seat: str
    partner: str  # empty in a singles event
    start_number: int


def seat_lines(pairings: PairingsList) -> list[SeatLine]:
    """Every player of the round with their table and seat, in Danish alphabetical order."""
    lines: list[SeatLine] = []
    for row in pairings.rows:
        for team, pair in (("YB", row.pair_yb), ("RG", row.pair_rg)):
            lines += _pair_lines(pair, row.table_number, pairings.seating.seats_of(team))
    for pair in pairings.byes:
        lines += _pair_lines(pair, None, ("",) * len(pair.player_names))
    return sorted(lines, key=lambda line: (danish_sort_key(line.player), line.start_number))


def _pair_lines(pair: PairInfo, table: int | None, seats: tuple[str, ...]) -> list[SeatLine]:
    """Each player of an entrant at their seat, with their partner (none in singles)."""
    names = pair.player_names
    return [
        SeatLine(name, table, seat, names[1 - k] if len(names) == 2 else "", pair.start_number)
        for k, (name, seat) in enumerate(zip(names, seats, strict=True))
    ]


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


def _pair_cell(pair: PairInfo, team: str, st: dict, *, table: TableKind) -> Paragraph:
    name = (
        f"<b>#{pair.start_number} {esc(pair.name)}</b><br/>"
        if pair.name
        else (f"<b>#{pair.start_number}</b><br/>")
    )
    seated = zip(table.seats_of(team), pair.player_names, strict=False)
    players = "<br/>".join(f"{_seat_mark(seat)} {esc(player)}" for seat, player in seated)
    return Paragraph(f"{name}{players}", st["cell"])


def _seat_mark(seat: str) -> str:
    colour = SEAT_COLOURS[seat].hexval()[2:]
    # ZapfDingbats "n" is a filled square: Helvetica has no such glyph.
    return f'<font name="ZapfDingbats" color="#{colour}">n</font> {seat_name(seat)}:'


def _by_table(pairings: PairingsList, st: dict) -> Table:
    singles = pairings.singles
    header = [
        _("Table"),
        side_name("YB", singles=singles),
        side_name("RG", singles=singles),
        _("First dealer"),
    ]
    data: list[list] = [header_cells(header, size=9)]
    for row in sorted(pairings.rows, key=lambda r: r.table_number):
        data.append(
            [
                Paragraph(f"<b>{row.table_number}</b>", st["h2"]),
                _pair_cell(row.pair_yb, "YB", st, table=pairings.seating),
                _pair_cell(row.pair_rg, "RG", st, table=pairings.seating),
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
    # A singles event has no partners: the column is left out.
    header = [_("Player"), _("Table"), _("Seat")]
    if not pairings.singles:
        header.append(_("Partner"))
    data: list[list] = [header_cells(header, size=9)]
    for line in seat_lines(pairings):
        table = str(line.table) if line.table is not None else _("Bye")
        seat = seat_name(line.seat) if line.seat else ""
        cells = [
            Paragraph(esc(line.player), st["cell"]),
            Paragraph(f"<b>{table}</b>", st["cell"]),
            Paragraph(seat, st["cell"]),
        ]
        if not pairings.singles:
            cells.append(Paragraph(esc(line.partner), st["cell"]))
        data.append(cells)
    flexible = {0: 1.0} if pairings.singles else {0: 1.0, 3: 1.0}
    widths = fitted_widths(header, total=500, flexible=flexible, size=9, minimum={1: 50, 2: 70})
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
