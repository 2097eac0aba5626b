from printing.documents import build_pairings_list
from printing.documents.pairings import seat_lines
from printing.documents.types import PairingRow, PairingsList
from tests.printing.documents.samples import pair
from tests.printing.pdf_tools import pdf_pages, pdf_text, qr_codes


def _pairings(**overrides):
    values = {
        "tournament": "DM i Partners 2026",
        "round_number": 2,
        "rows": [
            PairingRow(
                2,
                pair(3, "Øjvind Holm", "Aase Berg", name="Holdet"),
                pair(4, "Carla Dahl", "Dan Ebbesen"),
                "G",
            ),
            PairingRow(
                1, pair(1, "Åge Lund", "Zoe Nørgaard"), pair(2, "Ærling Fisk", "Bent Olsen"), "R"
            ),
        ],
        "byes": [pair(5, "Eva Friis", "Finn Graae")],
    }
    values.update(overrides)
    return PairingsList(**values)


def test_by_table_in_table_order_with_colours_and_byes():
    pages = pdf_pages(build_pairings_list(_pairings(), lang="en"))
    by_table = pages[0]
    assert "Round 2" in by_table and "Pairings by table" in by_table
    assert by_table.index("Åge Lund") < by_table.index("Øjvind Holm")  # table 1 before 2
    for text in (
        "Yellow/Blue",
        "Red/Green",
        "Yellow: Åge Lund",
        "Blue: Zoe Nørgaard",
        "Red: Ærling Fisk",
        "Green: Bent Olsen",
        "Holdet",
        "Bye:",
        "Eva Friis",
    ):
        assert text in by_table, text


def test_players_alphabetically_in_danish_order_with_table_and_seat():
    lines = seat_lines(_pairings())
    names = [line.player for line in lines]
    # Danish: æ, ø, å (and "aa") after z.
    assert names == [
        "Bent Olsen",
        "Carla Dahl",
        "Dan Ebbesen",
        "Eva Friis",
        "Finn Graae",
        "Zoe Nørgaard",
        "Ærling Fisk",
        "Øjvind Holm",
        "Åge Lund",
        "Aase Berg",
    ]
    seats = {line.player: (line.table, line.seat, line.partner) for line in lines}
    assert seats["Zoe Nørgaard"] == (1, "B", "Åge Lund")
    assert seats["Carla Dahl"] == (2, "R", "Dan Ebbesen")
    assert seats["Eva Friis"] == (None, "", "Finn Graae")


def test_alphabetical_page_lists_every_player():
    text = pdf_pages(build_pairings_list(_pairings(), lang="en"))[-1]
    assert "Where do I sit?" in text
    for name in ("Aase Berg", "Åge Lund", "Finn Graae", "Ærling Fisk"):
        assert name in text


def test_danish_by_default_and_no_qr_codes():
    pdf = build_pairings_list(_pairings())
    text = pdf_text(pdf)
    assert "Runde 2" in text and "Parringer efter bord" in text and "Hvor sidder jeg?" in text
    assert "Oversidder" in text
    assert qr_codes(pdf, 0) == []


def test_draft_is_marked():
    assert "Draft" in pdf_text(build_pairings_list(_pairings(published=False), lang="en"))


def test_the_first_dealer_header_wraps_between_its_words_in_danish():
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from printing.documents.base import CELL_PADDING, HEADER_FONT, fitted_widths

    text = pdf_text(build_pairings_list(_pairings(), lang="da"))
    assert "Første\nkortgiver" in text  # two lines, each word whole
    # The column holds its longest header word (no overflow into the margin).
    widths = fitted_widths(
        ["Bord", "Gul/Blå", "Rød/Grøn", "Første kortgiver"], total=520, flexible={1: 1.0, 2: 1.0},
        size=9, minimum={0: 42, 3: 58},
    )  # fmt: skip
    assert stringWidth("kortgiver", HEADER_FONT, 9) + CELL_PADDING <= widths[3]
