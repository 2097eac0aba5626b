"""clock.js: the live view shows the server's clock and 'time up' at the limit."""

from __future__ import annotations

import datetime

from django.utils import timezone

from games.services import clock as clock_service
from games.services.clock import clock_start
from judging.services.alerts import alerts_raise_due
from tests.factories import GameFactory, RoundFactory


def test_live_view_counts_down_and_says_time_up(page, live_server, monkeypatch):
    monkeypatch.setattr(clock_service, "_schedule_marks", lambda clocks: None)
    round_ = RoundFactory(status="in_progress")
    running = GameFactory(round=round_, table_number=1)
    late = GameFactory(round=round_, table_number=2)
    clock_start(game=running, at=timezone.now() - datetime.timedelta(minutes=20))
    clock_start(game=late, at=timezone.now() - datetime.timedelta(minutes=61))
    alerts_raise_due()
    base = f"{live_server.url}/tournaments/{round_.tournament.slug}/rounds/{round_.number}/tables"

    page.goto(f"{base}/1/")
    clock = page.locator(".game-clock")
    page.wait_for_selector(".game-clock[data-clock-status=running]")
    first = clock.locator(".game-clock__time").inner_text()
    minutes, seconds = (int(x) for x in first.split(":"))
    assert 39 * 60 < minutes * 60 + seconds <= 40 * 60  # 40 minutes left, from the server
    page.wait_for_function(
        "t => document.querySelector('.game-clock__time').textContent !== t", arg=first
    )

    page.goto(f"{base}/2/")
    page.wait_for_selector(".game-clock[data-clock-status=time_up]")
    assert clock.locator(".game-clock__time").inner_text() == "0:00"
    assert "Tiden er gået" in clock.inner_text()
