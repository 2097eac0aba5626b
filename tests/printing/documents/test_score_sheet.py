import datetime

import pytest

from printing.documents import build_score_sheets
from printing.documents import qr as qr_module
from tests.printing.documents.samples import UTC, sheet
from tests.printing.pdf_tools import page_size_mm, pdf_pages, qr_codes


def test_one_page_per_table_with_names_colours_and_dealer():
    sheets = [sheet(table=n) for n in (3, 4, 5)]
    pages = pdf_pages(build_score_sheets(sheets, lang="en"))
    assert len(pages) == 3
    first = pages[0]
    for text in (
        "DM i Partners 2026",
        "Round 3",
        "Søren Ærø",
        "Åse Østergård",
        "Mette Hansen",
        "Jens Kragh",
        "De Gule Løver",
        "Yellow/Blue",
        "Red/Green",
        "Yellow (Y)",
        "Blue (B)",
        "Red (R)",
        "Green (G)",
        "First dealer:",
        "Red (R) — Mette Hansen",
        "Final log hash",
        "Judge calls and rulings",
        "Signature Yellow/Blue",
        "Signature Red/Green",
        "Locked pawns",
        "Remaining distance",
        "Code: K7P003",
    ):
        assert text in first, text
    assert [p.split("Round 3")[1].split()[0] for p in pages] == ["3", "4", "5"]


def test_start_time_and_the_alert_and_limit_marks_in_copenhagen_time():
    start = datetime.datetime(2026, 11, 28, 9, 5, tzinfo=UTC)  # 10:05 in Copenhagen
    page = pdf_pages(
        build_score_sheets([sheet(started_at=start, alert_minutes=45, limit_minutes=55)], lang="en")
    )[0]
    assert "10:05" in page and "10:50" in page and "11:00" in page
    assert "+45 min" in page and "+55 min" in page


def test_without_start_time_the_marks_are_left_to_fill_in():
    page = pdf_pages(build_score_sheets([sheet()], lang="en"))[0]
    assert "+50 min" in page and "+60 min" in page
    assert "10:" not in page


def test_danish_is_the_default_language():
    page = pdf_pages(build_score_sheets([sheet()]))[0]
    assert "Runde 3" in page and "Bord" in page
    assert "Gul/Blå" in page and "Rød/Grøn" in page and "Første kortgiver:" in page
    assert "Round 3" not in page


@pytest.mark.parametrize("size, mm", [("A4", (210, 297)), ("A5", (148, 210))])
def test_page_sizes(size, mm):
    assert page_size_mm(build_score_sheets([sheet()], page_size=size)) == mm


def test_unknown_page_size_is_refused():
    with pytest.raises(ValueError):
        build_score_sheets([sheet()], page_size="Letter")


@pytest.mark.parametrize("size", ["A4", "A5"])
def test_qr_code_decodes_to_the_table_url(size):
    sheets = [sheet(table=n) for n in (1, 2)]
    pdf = build_score_sheets(sheets, page_size=size)
    assert qr_codes(pdf, 0) == [sheets[0].table_url]
    assert qr_codes(pdf, 1) == [sheets[1].table_url]


def test_qr_code_from_the_pure_python_encoder_decodes_too(monkeypatch):
    monkeypatch.setattr(qr_module, "zxingcpp", None)
    one = sheet(table=9)
    assert qr_codes(build_score_sheets([one]), 0) == [one.table_url]


def test_both_encoders_agree_on_the_symbol_size():
    url = sheet().table_url
    assert len(qr_module.qr_matrix_zxing(url)) == len(qr_module.qr_matrix_segno(url))


def test_a_sheet_without_table_link_has_no_qr_code():
    pdf = build_score_sheets([sheet(table_url="", short_code="")], lang="en")
    assert qr_codes(pdf, 0) == []
    assert "Code:" not in pdf_pages(pdf)[0]


def test_progress_is_reported_per_page():
    calls = []
    build_score_sheets(
        [sheet(table=n) for n in range(1, 5)],
        on_progress=lambda done, total: calls.append((done, total)),
    )
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_long_names_are_shrunk_not_dropped():
    long_name = "Christian Frederik Wilhelm Carl Rasmussen-Østergaard Lindholm"
    page = pdf_pages(
        build_score_sheets(
            [sheet(pair_rg=sheet().pair_rg.__class__(12, long_name, "Bo"))], lang="en"
        )
    )[0]
    assert long_name in page


def test_a5_is_the_whole_a4_layout_scaled_down():
    import numpy
    import pypdfium2

    one = [sheet()]
    images = []
    for size, scale in (("A4", 1.0), ("A5", 2**0.5)):
        document = pypdfium2.PdfDocument(build_score_sheets(one, page_size=size))
        page = document[0]
        bitmap = page.render(scale=scale, grayscale=True).to_pil()
        images.append(numpy.asarray(bitmap.convert("L").resize((595, 842)), dtype=float))
        page.close()
        document.close()
    # Nothing of the layout is cut off: each quarter of the page holds as much ink.
    a4, a5 = ((image < 128) for image in images)
    for rows in (slice(0, 421), slice(421, 842)):
        for cols in (slice(0, 298), slice(298, 595)):
            ink_a4, ink_a5 = a4[rows, cols].sum(), a5[rows, cols].sum()
            assert 0.8 < ink_a5 / ink_a4 < 1.25
    # The right-hand strip, outside an A5-sized box in A4 units, is drawn too.
    strip = (slice(300, 842), slice(440, 595))
    assert 0.8 < a5[strip].sum() / a4[strip].sum() < 1.25
