"""A judge's dashboard shows an alert appearing live and the acknowledgement."""

from __future__ import annotations

import datetime

from django.utils import timezone

from games.services import clock as clock_service
from games.services.clock import clock_start
from judging.models import Alert
from judging.services.alerts import alerts_raise_due
from tests.e2e.conftest import login
from tests.factories import GameFactory, RoundFactory, judge_of


def test_an_alert_appears_live_and_is_acknowledged(page, live_server, monkeypatch):
    # No broker in this test: the alert is raised by calling the sweep.
    monkeypatch.setattr(clock_service, "_schedule_marks", lambda clocks: None)
    round_ = RoundFactory(status="in_progress")
    quiet = GameFactory(round=round_, table_number=1)
    late = GameFactory(round=round_, table_number=2)
    clock_start(game=quiet, at=timezone.now() - datetime.timedelta(minutes=10))
    judge_of(round_.tournament)

    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    login(page, live_server, "judge")
    page.goto(f"{live_server.url}/tournaments/{round_.tournament.slug}/judge/")
    assert page.locator("h1").inner_text().startswith("Dommeroversigt")
    page.locator(f"#table-{quiet.pk}").wait_for()
    assert page.locator(".judge-alert").count() == 0
    assert "Ingen åbne alarmer." in page.locator("#judge-alerts").inner_text()

    clock_start(game=late, at=timezone.now() - datetime.timedelta(minutes=51))
    assert alerts_raise_due() == 1
    alert = Alert.objects.get(game=late)

    item = page.locator(f"#alert-{alert.pk}")
    item.wait_for(timeout=5000)  # the page polls every second; no reload
    assert "Bord 2" in item.inner_text()
    assert "50 minutter" in item.inner_text()
    # The alerted table moved to the top.
    assert page.locator(".judge-table").first.get_attribute("id") == f"table-{late.pk}"

    item.get_by_role("button", name="Jeg kommer").click()
    page.locator(f"#alert-{alert.pk} .judge-alert__ack").wait_for()
    assert "På vej: judge" in page.locator(f"#alert-{alert.pk}").inner_text()
    alert.refresh_from_db()
    assert alert.acknowledged_by.username == "judge"


def test_a_judge_pauses_a_table_from_the_dashboard(page, live_server, monkeypatch):
    monkeypatch.setattr(clock_service, "_schedule_marks", lambda clocks: None)
    round_ = RoundFactory(status="in_progress")
    game = GameFactory(round=round_, table_number=1)
    clock_start(game=game, at=timezone.now() - datetime.timedelta(minutes=5))
    judge_of(round_.tournament)
    login(page, live_server, "judge")
    page.goto(f"{live_server.url}/tournaments/{round_.tournament.slug}/judge/")
    card = page.locator(f"#table-{game.pk}")
    card.get_by_role("button", name="Forlæng").click()
    assert "begrundelse" in card.locator(".judge-table__error").inner_text()
    card.get_by_role("button", name="Pause").click()
    page.wait_for_selector(f"#table-{game.pk}[data-status=paused]")
    assert "Genoptag" in card.inner_text()
    game.clock.refresh_from_db()
    assert game.clock.paused_at is not None
