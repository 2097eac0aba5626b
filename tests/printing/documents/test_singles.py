"""Documents for a singles event (DUO, docs/rulesets/duo.md S1): two seats, Y and R."""

from __future__ import annotations

from games.engine import DUO
from printing.documents import build_pairings_list, build_score_sheets, build_standings
from printing.documents.pairings import seat_lines
from printing.documents.types import (
    PairInfo,
    PairingRow,
    PairingsList,
    StandingLine,
    StandingsTable,
    TableKind,
)
from tests.printing.documents.samples import sheet
from tests.printing.pdf_tools import pdf_pages, qr_codes


def single(number: int, name: str, club: str = "") -> PairInfo:
    return PairInfo(start_number=number, player_1=name, club=club)


def _singles_sheet(**overrides: object):
    values: dict[str, object] = {
        "pair_yb": single(3, "Søren Ærø", club="Odense"),
        "pair_rg": single(4, "Mette Hansen"),
        "first_dealer": "R",
        "seating": TableKind.of(DUO),
    }
    values.update(overrides)
    return sheet(**values)


def test_a_singles_score_sheet_has_two_seats_with_the_players_and_the_qr_code():
    pdf = build_score_sheets([_singles_sheet()], lang="en")
    page = pdf_pages(pdf)[0]
    for text in (
        "Søren Ærø",
        "Mette Hansen",
        "Yellow (Y)",
        "Red (R)",
        "Red (R) — Mette Hansen",
        "Signature Yellow",
        "Signature Red",
        "Locked pawns (0–6)",  # six pawns a player, duo.md S2
    ):
        assert text in page, text
    for text in ("Blue", "Green", "Yellow/Blue", "Red/Green", "(0–8)"):
        assert text not in page, text
    assert qr_codes(pdf) == [_singles_sheet().table_url]


def test_singles_and_pairs_sheets_in_one_document_keep_their_own_layouts():
    pages = pdf_pages(build_score_sheets([_singles_sheet(), sheet()], lang="en"))
    assert "Green (G)" not in pages[0] and "Green (G)" in pages[1]
    assert "Signature Yellow/Blue" in pages[1]


def test_a_singles_pairings_list_seats_each_player_without_a_partner():
    pairings = PairingsList(
        tournament="DUO-cup",
        round_number=2,
        rows=[PairingRow(1, single(1, "Åge Lund"), single(2, "Bent Olsen"), "Y")],
        byes=[single(3, "Carla Dahl")],
        seating=TableKind.of(DUO),
    )
    lines = seat_lines(pairings)
    assert [(line.player, line.table, line.seat, line.partner) for line in lines] == [
        ("Bent Olsen", 1, "R", ""),
        ("Carla Dahl", None, "", ""),
        ("Åge Lund", 1, "Y", ""),
    ]
    by_table, players = pdf_pages(build_pairings_list(pairings, lang="en"))
    assert "Yellow: Åge Lund" in by_table and "Red: Bent Olsen" in by_table
    assert "Blue" not in by_table and "Yellow/Blue" not in by_table
    assert "Bye: #3 Carla Dahl" in by_table
    assert "Partner" not in players and "Bent Olsen" in players


def test_singles_standings_name_players():
    line = StandingLine(
        rank=1, pair=single(1, "Åge Lund"), points=4, games_played=2, wins=2, losses=0, byes=0,
        buchholz=2, locked_for=12, locked_against=3, locked_diff=9, distance_diff=0,
    )  # fmt: skip
    page = pdf_pages(
        build_standings(StandingsTable(tournament="DUO", lines=[line], singles=True), lang="en")
    )[0]
    assert "Player" in page and "Åge Lund" in page and "&" not in page
