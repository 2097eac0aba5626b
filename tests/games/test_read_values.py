"""The typed values of the games read side answer in their serializers' shape.

Each value's ``to_json()`` is what the API sends; the serializers describe it
for the schema. The strict answer tests check the fields; these check the
order too, so an answer stays byte for byte what it was.
"""

from __future__ import annotations

import pytest

from games.selectors import game_state
from games.serializers import GameStateSerializer
from games.services.move_log import move_submit
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def test_a_table_state_answers_in_the_serializers_field_order():
    game = GameFactory(first_dealer="Y")
    move_submit(game=game, text="8: in", client_id="read-values-01", expected_seq=0)
    state = game_state(game=game).with_rulings([])
    assert list(state.to_json()) == list(GameStateSerializer().fields)
    lean = game_state(game=game, with_entries=False, with_legal=False).to_json()
    assert "entries" not in lean and "rulings" not in lean
    assert lean["legal_entries"] is None and lean["legal_effects"] is None
    assert lean["result"] == {"winner": None, "source": None, "finished": False}


def test_an_entry_a_ruling_and_a_hall_row_answer_in_their_serializers_field_order():
    from games.selectors import HallClock, HallTable, LogEntry, TableRuling
    from games.serializers import (
        EntrySerializer,
        HallTableSerializer,
        TableRulingSerializer,
    )

    entry = LogEntry(
        seq=3, seat="Y", text="Y 5: YS+5", hash="ab" * 32, events=(), created_at="2026-05-01"
    )
    assert list(entry.to_json()) == list(EntrySerializer().fields)
    assert entry.to_json()["short_hash"] == "abababab" == entry.short_hash
    ruling = TableRuling(id=1, kind="void", reason="r", judge="j", log=["! VOID 2"], at="t")
    assert list(ruling.to_json()) == list(TableRulingSerializer().fields)
    clock = HallClock(
        status="running", elapsed_s=1.0, remaining_s=2.0, limit_s=3.0, alert_s=2.5,
        speed=1.0, server_time="t",
    )  # fmt: skip
    table = HallTable(
        game_id=1, table=2, status="in_progress", pair_yb="A & B", pair_rg="C & D", seq=0,
        moves=0, call=None, distance={"YB": 1, "RG": 1}, progress={"YB": 0, "RG": 0},
        locked={"YB": 0, "RG": 0}, winner=None, elapsed_s=None, to_move="Y", clock=clock,
    )  # fmt: skip
    assert list(table.to_json()) == list(HallTableSerializer().fields)
    # The shared copy has no label; each request's copy adds it last (as the API always did).
    assert "status_label" not in table.to_json()["clock"]
    labelled = HallClock(**{**clock.__dict__, "status_label": "Kører"})
    assert list(labelled.to_json())[-1] == "status_label"


def _hall_row(table: int, *, call=None, winner=None, status="running", elapsed=0.0):
    from games.selectors import HallClock, HallTable

    clock = HallClock(
        status=status, elapsed_s=elapsed, remaining_s=3600 - elapsed, limit_s=3600.0,
        alert_s=3000.0, speed=1.0, server_time="t",
    )  # fmt: skip
    return HallTable(
        game_id=table, table=table, status="in_progress", pair_yb="", pair_rg="", seq=0,
        moves=0, call=call, distance={}, progress={}, locked={}, winner=winner,
        elapsed_s=None, to_move=None, clock=clock,
    )  # fmt: skip


def test_the_hall_puts_calls_first_then_late_clocks_and_finished_tables_last():
    from games.selectors import hall_urgency

    rows = [
        _hall_row(1, winner="YB"),
        _hall_row(2),
        _hall_row(3, status="paused"),
        _hall_row(4, elapsed=3100.0),
        _hall_row(5, elapsed=3600.0),
        _hall_row(6, status="time_up"),
        _hall_row(7, call="taken"),
        _hall_row(8, call="open", winner="RG"),
    ]
    order = [row.table for row in sorted(rows, key=hall_urgency)]
    assert order == [8, 7, 5, 6, 4, 3, 2, 1]


def test_a_retried_entry_taken_back_since_says_so_in_its_answer():
    from games.services.move_log import move_take_back

    game = GameFactory(first_dealer="Y")
    first = move_submit(game=game, text="8: in", client_id="read-values-02", expected_seq=0)
    move_take_back(game=game, client_id="read-values-02", seq=1)
    again = move_submit(game=game, text="8: in", client_id="read-values-02", expected_seq=0)
    assert not again.created and again.withdrawn
    answer = again.to_json()["entry"]
    assert answer == {**first.entry.to_json(), "withdrawn": True}
    assert "withdrawn" not in first.to_json()["entry"]


def test_a_preview_answers_in_its_serializers_field_order():
    from games.serializers import PreviewAnswerSerializer
    from games.services.move_log import move_preview

    game = GameFactory(first_dealer="Y")
    move_submit(game=game, text="11: in", client_id="read-values-03", expected_seq=0)
    preview = move_preview(game=game, text="8: in")
    assert list(preview.to_json()) == list(PreviewAnswerSerializer().fields)
    assert [change.to_json() for change in preview.changes] == [
        {"colour": "B", "from": ["BH"], "to": ["BS"]}
    ]
