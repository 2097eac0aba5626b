"""The dashboard's conditional polls: 304 while nothing changed, clocks still count down."""

from __future__ import annotations

import datetime
import time

from django.utils import timezone

from games.services import clock as clock_service
from games.services.clock import clock_start
from judging.models import Alert
from judging.services.alerts import alerts_raise_due
from tests.e2e.conftest import login
from tests.factories import GameFactory, RoundFactory, judge_of


def _seconds(text: str) -> int:
    minutes, seconds = text.rsplit(" ", 1)[-1].split(":")
    return int(minutes) * 60 + int(seconds)


def test_polls_get_304_and_clocks_count_on_until_an_alert(page, live_server, monkeypatch):
    monkeypatch.setattr(clock_service, "_schedule_marks", lambda clocks: None)
    round_ = RoundFactory(status="in_progress")
    quiet = GameFactory(round=round_, table_number=1)
    late = GameFactory(round=round_, table_number=2)
    clock_start(game=quiet, at=timezone.now() - datetime.timedelta(minutes=10))
    judge_of(round_.tournament)
    statuses: dict[str, list[int]] = {"dashboard": [], "calls": []}

    def record(response):  # type: ignore[no-untyped-def]
        for name in statuses:
            if f"/judge/{name}/" in response.url:
                statuses[name].append(response.status)

    page.on("response", record)
    login(page, live_server, "judge")
    page.goto(f"{live_server.url}/tournaments/{round_.tournament.slug}/judge/")
    remaining = page.locator(f"#table-{quiet.pk} .judge-table__remaining")
    first = _seconds(remaining.inner_text())
    started = time.monotonic()
    assert 49 * 60 < first <= 50 * 60  # 50 minutes left, from the server

    # Nothing changes but time: the polls are answered 304 and the clock counts on.
    deadline = time.monotonic() + 10
    while not (304 in statuses["dashboard"] and 304 in statuses["calls"]):
        assert time.monotonic() < deadline, statuses
        page.wait_for_timeout(100)
    page.wait_for_timeout(1100)  # the poll after the last 304 has rendered
    assert all(s in (200, 304) for s in statuses["dashboard"])
    later = _seconds(remaining.inner_text())
    waited = time.monotonic() - started
    assert later < first
    assert abs((first - later) - waited) <= 2.5

    # An alert between two polls shows on the next one.
    clock_start(game=late, at=timezone.now() - datetime.timedelta(minutes=51))
    assert alerts_raise_due() == 1
    alert = Alert.objects.get(game=late)
    page.locator(f"#alert-{alert.pk}").wait_for(timeout=5000)
    assert statuses["dashboard"][-1] == 200
