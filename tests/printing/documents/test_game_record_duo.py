"""A Partners DUO game record in print: entries and rulings, no four-seat diagrams."""

from __future__ import annotations

from django.utils import translation

from games.engine import DUO, selfplay_game
from printing.timeline import judge_entry_label, record_timeline


def test_duo_judge_entries_are_labelled_with_the_players():
    with translation.override("en"):
        assert judge_entry_label("! P1 R", DUO) == (
            "Penalty P1: Red is dealt 3 cards at the next deal",
            "P1",
        )
        assert judge_entry_label("! RESULT Y TIME", DUO) == ("Decided on time: Yellow wins", "W2")
        # Read as a four-seat entry, the DUO code is unreadable.
        assert judge_entry_label("! P2 R RO7") == ("", "")


def test_a_duo_record_prints_its_entries_and_rulings_without_diagrams():
    record = selfplay_game(3, DUO, first_dealer="Y")
    moves = [*record["moves"][:10], "! P1 Y", "! VOID 10"]
    entries, diagrams, checked = record_timeline({**record, "moves": moves}, lang="en")
    assert checked == 12
    assert [e.text for e in entries] == moves
    assert entries[10].ruling and entries[10].rule == "P1"
    assert entries[0].seat == "R" and not entries[0].ruling
    assert diagrams == []  # the printed board is the four-seat one (docs/printing.md)
