"""A Partners DUO game record in print: entries, rulings and DUO board diagrams."""

from __future__ import annotations

import io
import re

from django.utils import translation
from reportlab.pdfgen.canvas import Canvas

from games.engine import DUO, replay, selfplay_game
from printing.documents import build_game_record
from printing.documents.board_duo import draw_duo_board
from printing.documents.types import GameRecord, TableKind
from printing.timeline import judge_entry_label, record_timeline
from tests.printing.pdf_tools import DUO_AREAS, area_labels, pdf_text


def _duo_record():
    record = selfplay_game(3, DUO, first_dealer="Y")
    moves = [*record["moves"][:10], "! P1 Y", "! VOID 10"]
    return {**record, "moves": moves, "players": {"Y": "Anne", "R": "Bo"}}


def test_duo_judge_entries_are_labelled_with_the_players():
    with translation.override("en"):
        assert judge_entry_label("! P1 R", DUO) == (
            "Penalty P1: Red is dealt 3 cards at the next deal",
            "P1",
        )
        assert judge_entry_label("! RESULT Y TIME", DUO) == ("Decided on time: Yellow wins", "W2")
        # Read as a four-seat entry, the DUO code is unreadable.
        assert judge_entry_label("! P2 R RO7") == ("", "")


def test_a_duo_record_prints_its_entries_and_rulings_with_duo_diagrams():
    record = _duo_record()
    entries, diagrams, checked = record_timeline(record, lang="en")
    assert checked == 12
    assert [e.text for e in entries] == record["moves"]
    assert entries[10].ruling and entries[10].rule == "P1"
    assert entries[0].seat == "R" and not entries[0].ruling
    # After each judge entry (P1, VOID) and at the end of the checked log.
    assert [(d.after_entry, d.ruling) for d in diagrams] == [(11, True), (12, True)]
    # The positions are DUO's (duo.md B3): areas YK RK YO RO, three pawns each (S2).
    assert all(set(d.position) == {"YK", "RK", "YO", "RO"} for d in diagrams)
    assert all(d.board_fields == DUO.board_fields for d in diagrams)
    prefix = {**record, "moves": record["moves"][:11]}
    assert diagrams[0].position == replay(prefix).position.to_json()
    assert diagrams[-1].position == replay(record).position.to_json()
    # VOID 10 takes entry 10 back: the board after it differs from the one before.
    assert diagrams[0].position != diagrams[1].position


def test_a_duo_record_pdf_draws_its_areas_and_captions():
    record = _duo_record()
    entries, diagrams, checked = record_timeline(record, lang="en")
    document = GameRecord(
        "DUO-cup",
        1,
        2,
        record["players"],
        "Y",
        entries,
        diagrams,
        winner="RG",
        checked=checked,
        seating=TableKind.of(DUO),
    )
    text = pdf_text(build_game_record(document, lang="en"))
    # Two players, one per side (duo.md S1).
    assert "Yellow: Anne, Red: Bo" in text and "Blue" not in text
    assert "Red/Green" not in text and re.search(r"Result\s+Red", text)
    assert "Position after entry 11 (ruling)" in text
    assert "Position after entry 12 (ruling)" in text
    # Each diagram names the four areas (B1); the entries never print a bare code.
    assert area_labels(text) == ["YK", "RK", "YO", "RO"] * len(diagrams)


def _drawn(position):
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pageCompression=0)
    draw_duo_board(canvas, position, x=0, y=0, size=150)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue().decode("latin-1")


def test_every_duo_pawn_carries_its_letter_and_hole_pawns_are_square():
    position = {
        "YK": ["YKH", "YK5", "YKM1"],
        "RK": ["RKH", "RKH", "RKS"],
        "YO": ["YOH", "YOH", "RK3"],
        "RO": ["ROH", "RO7", "RO7"],  # two pawns of one area join on a field (T2)
    }
    stream = _drawn(position)
    # A letter on every pawn off its home: Y on 3, R on 2 (the joined RO7 pawns are one).
    assert stream.count("(Y) Tj") == 3
    assert stream.count("(R) Tj") == 2
    assert all(stream.count(f"({area}) Tj") == 1 for area in DUO_AREAS)
    # Squares (duo.md S2's hole pawns): the two hole homes (YOH, ROH) and
    # the hole pawns on RK3 and RO7.
    assert len(re.findall(r" re\b", stream)) == 4
    # The homes say how many pawns wait there.
    assert stream.count("(1) Tj") == 2 and stream.count("(2) Tj") == 3
