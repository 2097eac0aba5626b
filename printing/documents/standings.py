"""Standings with every tiebreak column, and the knockout bracket. Public documents."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from printing.documents.base import (
    LIGHT_GREY,
    esc,
    fitted_widths,
    header_cells,
    number_text,
    platypus_pdf,
    styles,
)
from printing.documents.types import Bracket, BracketMatch, PairInfo, StandingsTable


def tiebreak_label(key: str) -> str:
    return {
        "buchholz": _("Buchholz"),
        "wins": _("Wins"),
        "locked_diff": _("Locked-pawn difference"),
        "distance_diff": _("Remaining-distance difference"),
        "head_to_head": _("Head-to-head"),
    }.get(key, key)


# Landscape A4 between the 14 mm margins of ``platypus_pdf``.
_LANDSCAPE_WIDTH = landscape(A4)[0] - 2 * 14 * mm


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def build_standings(standings: StandingsTable, *, lang: str = "da") -> bytes:
    with translation.override(lang):
        st = styles()
        title = standings.tournament + " — " + _("Standings")
        if standings.up_to_round:
            title += " " + _("after round %(number)d") % {"number": standings.up_to_round}
        story: list = [Paragraph(esc(title), st["title"])]
        if standings.tiebreaks:
            order = ", ".join(tiebreak_label(k) for k in standings.tiebreaks)
            story.append(
                Paragraph(_("Tiebreaks in order: %(order)s") % {"order": order}, st["small"])
            )
        story.append(Spacer(0, 6))
        header = [
            _("Rank"),
            _("Player") if standings.singles else _("Pair"),
            _("Points"),
            _("Played"),
            _("Won"),
            _("Lost"),
            _("Byes"),
            _("Buchholz"),
            _("Locked for"),
            _("Locked against"),
            _("Locked diff."),
            _("Distance diff."),
            _("Head-to-head"),
            _("Tiebreak"),
        ]
        data: list[list] = [header_cells(header)]
        for line in standings.lines:
            rank = f"{line.rank}=" if line.shared_rank else str(line.rank)
            data.append(
                [
                    rank,
                    Paragraph(f"#{line.pair.start_number} {esc(line.pair.label)}", st["cell"]),
                    number_text(line.points),
                    line.games_played,
                    line.wins,
                    line.losses,
                    line.byes,
                    number_text(line.buchholz),
                    line.locked_for,
                    line.locked_against,
                    _signed(line.locked_diff),
                    _signed(line.distance_diff),
                    Paragraph(esc(line.head_to_head), st["small"]),
                    Paragraph(esc(line.tiebreak_note), st["small"]),
                ]
            )
        # The pair and the tiebreak note wrap; the numbers' headers get their longest word.
        widths = fitted_widths(
            header, total=_LANDSCAPE_WIDTH, flexible={1: 2.0, 13: 1.0}, minimum={1: 120, 13: 70}
        )
        table = Table(data, colWidths=widths, repeatRows=1)
        table.setStyle(
            TableStyle(
                [
                    ("BACKGROUND", (0, 0), (-1, 0), LIGHT_GREY),
                    ("FONTSIZE", (0, 1), (-1, -1), 8.5),
                    ("LEFTPADDING", (0, 0), (-1, -1), 3),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                    ("ALIGN", (2, 1), (11, -1), "RIGHT"),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.4, colors.grey),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ]
            )
        )
        story.append(table)
        if not standings.lines:
            story.append(Paragraph(_("No results yet."), st["body"]))
        return platypus_pdf(story, title=title, footer=title, pagesize=landscape(A4))


def build_bracket(bracket: Bracket, *, lang: str = "da") -> bytes:
    """The knockout bracket: one column per round, winners in bold."""
    with translation.override(lang):
        st = styles()
        title = bracket.tournament + " — " + _("Knockout bracket")
        story: list = [Paragraph(esc(title), st["title"]), Spacer(0, 8)]
        if not bracket.rounds:
            story.append(Paragraph(_("The knockout has not been drawn yet."), st["body"]))
            return platypus_pdf(story, title=title, footer=title, pagesize=landscape(A4))
        columns = [
            [Paragraph(f"<b>{esc(r.title)}</b>", st["body"])]
            + [_match_cell(m, st) for m in sorted(r.matches, key=_match_order)]
            for r in bracket.rounds
        ]
        height = max(len(col) for col in columns)
        rows = [[col[i] if i < len(col) else "" for col in columns] for i in range(height)]
        width = min(200.0, 760.0 / len(columns))
        table = Table(rows, colWidths=[width] * len(columns))
        table.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 8),
                ]
            )
        )
        story.append(table)
        return platypus_pdf(story, title=title, footer=title, pagesize=landscape(A4))


def _match_order(match: BracketMatch) -> tuple[bool, int]:
    return (match.is_third_place, match.slot)


def _side(pair: PairInfo | None, won: bool) -> str:
    if pair is None:
        return f"<i>{_('bye / to be decided')}</i>"
    text = f"#{pair.start_number} {esc(pair.label)}"
    return f"<b>{text} ({_('winner')})</b>" if won else text


def _match_cell(match: BracketMatch, st: dict) -> Table:
    caption = (
        _("Third place") if match.is_third_place else _("Match %(slot)d") % {"slot": match.slot}
    )
    if match.table_number:
        caption += " · " + _("Table") + f" {match.table_number}"
    cell = Table(
        [
            [Paragraph(f"<font size=7>{caption}</font>", st["small"])],
            [Paragraph(_side(match.pair_a, match.winner == "a"), st["cell"])],
            [Paragraph(_side(match.pair_b, match.winner == "b"), st["cell"])],
        ],
        colWidths=[None],
    )
    cell.setStyle(
        TableStyle(
            [
                ("BOX", (0, 1), (-1, -1), 0.8, colors.black),
                ("LINEBELOW", (0, 1), (-1, 1), 0.4, colors.grey),
            ]
        )
    )
    return cell
