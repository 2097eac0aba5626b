import pytest

from printing.documents import build_bracket, build_standings
from printing.documents.types import (
    Bracket,
    BracketMatch,
    BracketRound,
    StandingLine,
    StandingsTable,
)
from tests.printing.documents.samples import pair
from tests.printing.pdf_tools import pdf_text


def _line(rank, number, points, buchholz, note="", shared=False):
    return StandingLine(
        rank=rank,
        pair=pair(number, f"Spiller {number}a", f"Spiller {number}b"),
        points=points,
        games_played=3,
        wins=points // 2,
        losses=3 - points // 2,
        byes=0,
        buchholz=buchholz,
        locked_for=17,
        locked_against=9,
        locked_diff=8,
        distance_diff=-23,
        head_to_head="2" if shared else "",
        shared_rank=shared,
        tiebreak_note=note,
    )


def test_standings_show_every_tiebreak_column_and_the_reason():
    table = StandingsTable(
        tournament="DM i Partners 2026",
        lines=[
            _line(1, 4, 6, 14),
            _line(2, 9, 4, 14, "Buchholz 14 vs 12"),
            _line(3, 2, 4, 12, "Wins 2 vs 1"),
            _line(3, 7, 4, 12, shared=True),
        ],
        up_to_round=3,
        tiebreaks=["buchholz", "wins", "locked_diff", "distance_diff", "head_to_head"],
    )
    text = pdf_text(build_standings(table, lang="en"))
    assert "Standings after round 3" in text
    for header in (
        "Points",
        "Buchholz",
        "Won",
        "Lost",
        "Byes",
        "Locked",
        "Distance",
        "Head-to-head",
        "Tiebreak",
    ):
        assert header in text, header
    assert "Buchholz 14 vs 12" in text and "Wins 2 vs 1" in text
    assert "3=" in text  # shared rank
    assert "+8" in text and "-23" in text
    assert "Spiller 9a & Spiller 9b" in text
    assert "Tiebreaks in order: Buchholz, Wins, Locked-pawn difference" in text


def test_standings_in_danish():
    text = pdf_text(build_standings(StandingsTable("DM", [_line(1, 1, 2, 0)]), lang="da"))
    assert "Stilling" in text and "Point" in text


def test_bracket_shows_rounds_winners_tables_and_third_place():
    bracket = Bracket(
        "DM i Partners 2026",
        [
            BracketRound(
                "Semi-finals",
                6,
                [
                    BracketMatch(1, pair(1, "Anne", "Bo"), pair(4, "Carl", "Dorte"), "a", 1),
                    BracketMatch(2, pair(2, "Erik", "Fie"), pair(3, "Gorm", "Hanne"), "b", 2),
                ],
            ),
            BracketRound(
                "Final",
                7,
                [
                    BracketMatch(1, pair(1, "Anne", "Bo"), pair(3, "Gorm", "Hanne"), "", 1),
                    BracketMatch(2, pair(4, "Carl", "Dorte"), pair(2, "Erik", "Fie"), "", 2, True),
                ],
            ),
        ],
    )
    text = pdf_text(build_bracket(bracket, lang="en"))
    assert "Semi-finals" in text and "Final" in text and "Third place" in text
    assert "#1 Anne & Bo (winner)" in text and "#3 Gorm & Hanne (winner)" in text
    assert "#4 Carl & Dorte (winner)" not in text
    assert "Table 2" in text


def test_empty_bracket_says_so():
    assert "not been drawn" in pdf_text(build_bracket(Bracket("DM", []), lang="en"))


# Every word of every column header, as it must appear: whole, on one line.
HEADER_WORDS = {
    "da": ["Plac.", "Par", "Point", "Spillet", "Vundet", "Tabt", "Oversidninger", "Buchholz",
           "Låste", "imod", "forskel", "Distance-forskel", "Indbyrdes", "Tiebreak"],
    "en": ["Rank", "Pair", "Points", "Played", "Won", "Lost", "Byes", "Buchholz", "Locked",
           "against", "diff.", "Distance", "Head-to-head", "Tiebreak"],
}  # fmt: skip


@pytest.mark.parametrize("lang", ["da", "en"])
def test_column_headers_never_break_inside_a_word(lang):
    long_name = pair(12, "Anne-Marie Christiansen-Østergaard", "Bo Bæk", name="Partnersklubben")
    line = _line(1, 12, 6, 14)
    table = StandingsTable("DM i Partners 2026", [StandingLine(**{**line.__dict__,
                                                                  "pair": long_name})])  # fmt: skip
    text = pdf_text(build_standings(table, lang=lang))
    header = text.split("#12")[0]
    lines = header.splitlines()
    for word in HEADER_WORDS[lang]:
        assert any(word in row.split() for row in lines), (word, lines)
    # The words the header was broken into before ("Vund et", "Distance-fo rskel").
    assert "Vund" not in header.replace("Vundet", "") and "fo\nrskel" not in header


def test_fitted_widths_keep_each_header_word_in_its_column():
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from printing.documents.base import CELL_PADDING, HEADER_FONT, fitted_widths

    labels = ["Plac.", "Par", "Distance-forskel", "Oversidninger", "Første kortgiver"]
    widths = fitted_widths(labels, total=500, flexible={1: 1.0}, minimum={0: 40})
    for label, width in zip(labels, widths, strict=True):
        widest = max(stringWidth(w, HEADER_FONT, 8) for w in label.split())
        assert widest + CELL_PADDING <= width + 1e-9, label
    assert widths[0] == 40 and abs(sum(widths) - 500) < 1e-6


def test_danish_bracket_says_vinder():
    bracket = Bracket(
        "DM i Partners 2026",
        [BracketRound("Finale", 7, [BracketMatch(1, pair(1, "Anne", "Bo"), pair(3, "Gorm", "Hanne"),
                                                 "b", 1)])],
    )  # fmt: skip
    text = pdf_text(build_bracket(bracket, lang="da"))
    assert "#3 Gorm & Hanne (vinder)" in text and "winner" not in text
