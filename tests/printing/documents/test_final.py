"""The final results PDF: champions, podium, final standings."""

from __future__ import annotations

import datetime

from printing.documents import build_final_results
from printing.documents.types import FinalLine, FinalStandings
from tests.printing.documents.samples import pair
from tests.printing.pdf_tools import pdf_text


def _final(**overrides):
    values = {
        "tournament": "DM i Partners 2026",
        "finished": True,
        "lines": [
            FinalLine(1, pair(4, "Åse Ørum", "Bo Bæk", name="De Gule Løver"), "Vandt finalen"),
            FinalLine(2, pair(1, "Carl Dahl", "Dorte Eg"), "Tabte finalen"),
            FinalLine(3, pair(7, "Erik Fisk", "Fie Gram"), "Ude i semifinaler", shared=True),
            FinalLine(3, pair(2, "Gorm Hald", "Hanne Ild"), "Ude i semifinaler", shared=True),
            FinalLine(5, pair(3, "Ib Juul", "Jytte Kok"), "Nr. 5 efter Monrad-runderne"),
        ],
        "date": datetime.date(2026, 11, 28),
        "venue": "Odense",
    }
    values.update(overrides)
    return FinalStandings(**values)


def test_champions_podium_and_final_standings_in_danish():
    text = pdf_text(build_final_results(_final(), lang="da"))
    flat = " ".join(text.split())
    assert "DM i Partners 2026 — Slutresultat" in flat
    assert "28. november 2026 · Odense" in flat
    assert "VINDERE De Gule Løver (Åse Ørum & Bo Bæk)" in flat
    # The podium: 1, 2 and both shared thirds; then every place.
    assert "1 #4 De Gule Løver (Åse Ørum & Bo Bæk) Vandt finalen" in flat
    assert flat.count("3= #") >= 2 and "Slutstilling" in flat
    assert "5 #3 Ib Juul & Jytte Kok Nr. 5 efter Monrad-runderne" in flat
    for header in ("Plads", "Par", "Afgjort ved"):
        assert header in text


def test_english_and_not_finished():
    text = pdf_text(build_final_results(_final(finished=False, lines=[]), lang="en"))
    assert "Final results" in text and "The event is not finished yet." in text
    assert "Champions" not in text


def test_a_shared_first_place_says_so():
    lines = [FinalLine(1, pair(1, "A", "B"), "x", True), FinalLine(1, pair(2, "C", "D"), "x", True)]
    text = pdf_text(build_final_results(_final(lines=lines), lang="en"))
    assert "SHARED FIRST PLACE" in text
