"""An undone ruling in a printed game record (RULES.md J2)."""

from __future__ import annotations

from django.utils import translation

from games.engine import selfplay_game
from printing.timeline import judge_entry_label, record_timeline


def test_an_undo_is_labelled_in_plain_words_with_its_rule():
    with translation.override("en"):
        label = judge_entry_label("! UNDO 11 12")
    assert label == ("Ruling undone: entries 11, 12 no longer count", "J2")


def test_a_record_with_an_undo_prints_it_as_a_ruling():
    record = selfplay_game(7, first_dealer="Y")
    moves = [*record["moves"][:10], "! VOID 10", "! UNDO 11"]
    entries, _diagrams, checked = record_timeline({**record, "moves": moves}, lang="da")
    assert checked == 12
    assert entries[11].ruling and entries[11].rule == "J2"
    assert entries[11].note == "Kendelse omgjort: post 11 gælder ikke længere"
