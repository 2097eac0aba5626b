"""The broadcast bench's bookkeeping (bench/broadcast_load.py), without the load:
each phase's deliveries and gunicorn's own times for the other tables only."""

from __future__ import annotations

from bench import broadcast_load


def test_a_phases_deliveries_count_what_each_viewer_missed_and_saw_twice():
    figures = {
        "event_ids": [11, 12, 13],
        "received": [3, 2, 3, 0],  # the last one was not held
        "duplicated": 1,
        "out_of_order": 0,
        "closed_early": 0,
        "latency_ms": {"p99": 9.0},
    }
    seen = broadcast_load.delivery(figures, held=3, confirmed=3)
    assert seen["lost"] == 1 and seen["duplicated"] == 1 and seen["deliveries"] == 8
    assert seen["events_seen"] == 3 and seen["events_consecutive"] is True
    gap = broadcast_load.delivery({**figures, "event_ids": [11, 13]}, held=3, confirmed=3)
    assert gap["events_consecutive"] is False


def test_gunicorns_times_leave_out_the_finals_entries_and_keep_their_order(tmp_path, monkeypatch):
    log = tmp_path / "access.log"
    log.write_text(
        "POST /api/table/other1/entries/ 201 12000\n"
        "GET /api/table/other1/state/ 200 3000\n"
        "POST /api/table/FINAL/entries/ 201 50000\n"
        "POST /api/table/other2/entries/ 201 8000\n"
    )
    monkeypatch.setattr(broadcast_load, "ACCESS_LOG", log)
    times = broadcast_load.served_ms("FINAL")
    # The final's place is kept (a later phase slices from a count), its time is not used.
    assert times == [12.0, -1.0, 8.0]
    assert [t for t in times[1:] if t >= 0] == [8.0]
