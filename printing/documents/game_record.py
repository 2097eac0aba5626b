"""A game's record: every entry with its hits and locks, board diagrams at
regular intervals and after every judge ruling. For organisers and judges."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from printing.documents.base import (
    LIGHT_GREY,
    esc,
    platypus_pdf,
    round_heading,
    seat_name,
    side_name,
    styles,
)
from printing.documents.board import BoardFlowable
from printing.documents.types import BoardDiagram, GameRecord, RecordEntry

RULING_BACKGROUND = colors.HexColor("#fff1d6")


def build_game_record(record: GameRecord, *, lang: str = "da") -> bytes:
    with translation.override(lang):
        st = styles()
        title = f"{record.tournament} — {round_heading(record.round_number)} — " + _(
            "Table %(number)d"
        ) % {"number": record.table_number}
        story: list = [Paragraph(esc(title), st["title"]), _summary(record, st), Spacer(0, 8)]
        for entries, diagram in _chunks(record):
            story.append(_chunk_table(entries, diagram, st))
            story.append(Spacer(0, 6))
        if not record.entries:
            story.append(Paragraph(_("No moves have been logged."), st["body"]))
        return platypus_pdf(story, title=title, footer=title)


def _summary(record: GameRecord, st: dict) -> Table:
    seats = record.seating.seats
    players = ", ".join(f"{seat_name(seat)}: {esc(record.players.get(seat, ''))}" for seat in seats)
    winner = side_name(record.winner, singles=record.singles) if record.winner else ""
    result = winner or _("No result")
    if record.result_note:
        result += f" — {esc(record.result_note)}"
    if record.checked is None:
        check = _("Not checked by the rules engine.")
    elif record.checked == len(record.entries):
        check = _("All %(count)d entries accepted by the rules engine.") % {"count": record.checked}
    else:
        check = _(
            "The rules engine accepted the first %(count)d entries; see the marked entry."
        ) % {"count": record.checked}
    rows = [
        [_("Players"), Paragraph(players, st["cell"])],
        [_("First dealer"), seat_name(record.first_dealer)],
        [_("Result"), Paragraph(result, st["cell"])],
        [_("Final log hash"), record.final_hash or "—"],
        [_("Check"), Paragraph(check, st["cell"])],
    ]
    table = Table(rows, colWidths=[90, 420])
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (0, -1), "Helvetica-Bold"),
                ("FONTSIZE", (0, 0), (-1, -1), 9),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return table


def _chunks(record: GameRecord) -> list[tuple[list[RecordEntry], BoardDiagram | None]]:
    """Entries grouped so each group ends where a diagram is drawn."""
    by_entry = {d.after_entry: d for d in record.diagrams}
    chunks: list[tuple[list[RecordEntry], BoardDiagram | None]] = []
    current: list[RecordEntry] = []
    for entry in record.entries:
        current.append(entry)
        if entry.number in by_entry:
            chunks.append((current, by_entry[entry.number]))
            current = []
    if current:
        chunks.append((current, None))
    if 0 in by_entry and chunks:
        # The starting position (a game record with a start position) comes first.
        chunks.insert(0, ([], by_entry[0]))
    return chunks


def _events(entry: RecordEntry) -> str:
    parts = [_("hit %(pawn)s") % {"pawn": hit} for hit in entry.hits]
    parts += [_("locked %(pawn)s") % {"pawn": lock} for lock in entry.locks]
    return ", ".join(parts)


def _chunk_table(entries: list[RecordEntry], diagram: BoardDiagram | None, st: dict) -> Table:
    rows: list[list] = [[_("No."), _("Entry"), _("Hits and locks")]]
    highlight: list[int] = []
    for entry in entries:
        text = esc(entry.text)
        if entry.ruling or entry.note:
            label = _("Ruling") if entry.ruling else _("Rejected")
            rule = f" [{esc(entry.rule)}]" if entry.rule else ""
            text += f"<br/><b>{label}{rule}:</b> {esc(entry.note)}"
            highlight.append(len(rows))
        rows.append(
            [
                str(entry.number),
                Paragraph(text, st["cell"]),
                Paragraph(esc(_events(entry)), st["small"]),
            ]
        )
    moves = Table(rows, colWidths=[28, 170, 130], repeatRows=1)
    style = [
        ("BACKGROUND", (0, 0), (-1, 0), LIGHT_GREY),
        ("FONTSIZE", (0, 0), (-1, -1), 8.5),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.lightgrey),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
    style += [("BACKGROUND", (0, r), (-1, r), RULING_BACKGROUND) for r in highlight]
    moves.setStyle(TableStyle(style))
    if diagram is None:
        return moves
    if diagram.after_entry:
        caption = _("Position after entry %(number)d") % {"number": diagram.after_entry}
    else:
        caption = _("Starting position")
    if diagram.ruling:
        caption += " (" + _("ruling") + ")"
    board = BoardFlowable(diagram.position, caption, fields=diagram.board_fields)
    outer = Table([[moves, board]], colWidths=[340, 170])
    outer.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return outer
