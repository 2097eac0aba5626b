"""Overrun prediction at the alert mark (pure: no database, no engine)."""

from __future__ import annotations

import pytest

from judging.services.prediction import predict_finish, urgency_key

START = {"YB": 400, "RG": 400}


def test_pace_and_remaining_distance_give_the_finish():
    # YB covered 200 of 400 steps in 50 min: 200 more steps take 50 min.
    p = predict_finish(elapsed_s=3000, limit_s=3600, start=START, now={"YB": 200, "RG": 300})
    assert p["known"] and not p["stuck"]
    assert p["predicted_finish_s"] == pytest.approx(6000)
    assert p["overrun_s"] == pytest.approx(2400)
    assert p["progress"] == pytest.approx(0.5)


def test_the_team_closest_to_finishing_decides():
    p = predict_finish(elapsed_s=3000, limit_s=3600, start=START, now={"YB": 40, "RG": 390})
    # YB: 360 steps in 3000 s -> 40 steps in 333.3 s.
    assert p["predicted_finish_s"] == pytest.approx(3333.3, abs=0.1)
    assert p["overrun_s"] < 0


def test_no_progress_is_stuck():
    p = predict_finish(elapsed_s=3000, limit_s=3600, start=START, now=dict(START))
    assert p["stuck"] and p["predicted_finish_s"] is None and p["overrun_s"] is None


def test_no_log_is_unknown():
    p = predict_finish(elapsed_s=3000, limit_s=3600, start=None, now=None)
    assert p["known"] is False and p["elapsed_s"] == 3000


def test_urgency_stuck_then_overrun_then_unknown_then_on_time():
    stuck = predict_finish(elapsed_s=3000, limit_s=3600, start=START, now=dict(START))
    late = predict_finish(elapsed_s=3000, limit_s=3600, start=START, now={"YB": 200, "RG": 300})
    later = predict_finish(elapsed_s=3000, limit_s=3600, start=START, now={"YB": 300, "RG": 300})
    on_time = predict_finish(elapsed_s=3000, limit_s=3600, start=START, now={"YB": 10, "RG": 300})
    unknown_long = predict_finish(elapsed_s=3100, limit_s=3600, start=None, now=None)
    unknown = predict_finish(elapsed_s=3000, limit_s=3600, start=None, now=None)
    ranked = sorted([on_time, unknown, late, unknown_long, stuck, later], key=urgency_key)
    assert ranked == [stuck, later, late, unknown_long, unknown, on_time]
