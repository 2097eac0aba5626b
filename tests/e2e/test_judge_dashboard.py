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
    assert page.locator(".alert-tile").count() == 0
    assert "Ingen åbne alarmer." in page.locator("#judge-alerts").inner_text()

    clock_start(game=late, at=timezone.now() - datetime.timedelta(minutes=51))
    assert alerts_raise_due() == 1
    alert = Alert.objects.get(game=late)

    item = page.locator(f"#alert-{alert.pk}")
    item.wait_for(timeout=5000)  # the page polls every second; no reload
    assert "Bord 2" in item.inner_text()
    assert "ingen træk logget" in item.inner_text()  # the forecast in plain words
    group = page.locator("#alert-group-alert-50")
    assert "50 minutter" in group.inner_text()
    # The alerted table moved to the top.
    assert page.locator(".judge-table").first.get_attribute("id") == f"table-{late.pk}"

    item.get_by_role("button", name="Jeg kommer til bord 2").click()
    page.locator(f"#judge-acknowledged-list #alert-{alert.pk}").wait_for(state="attached")
    assert page.locator(".alert-tile").count() == 0
    page.locator("#judge-acknowledged summary").click()
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
    card.locator("summary", has_text="Ur: pause, forlæng").click()  # folded on the card
    card.get_by_role("button", name="Forlæng").click()
    assert "begrundelse" in card.locator(".judge-table__error").inner_text()
    card.get_by_role("button", name="Pause").click()
    page.wait_for_selector(f"#table-{game.pk}[data-status=paused]")
    assert "Genoptag" in card.inner_text()
    game.clock.refresh_from_db()
    assert game.clock.paused_at is not None


def test_a_hundred_tables_at_the_limit_on_a_phone(page, live_server, monkeypatch):
    """Time is up at 100 tables at once: one box says which, one tap acknowledges them all."""
    monkeypatch.setattr(clock_service, "_schedule_marks", lambda clocks: None)
    round_ = RoundFactory(status="in_progress")
    for number in range(1, 101):
        game = GameFactory(round=round_, table_number=number)
        clock_start(game=game, at=timezone.now() - datetime.timedelta(minutes=61))
    assert alerts_raise_due() == 200
    judge_of(round_.tournament)

    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, "judge")
    page.goto(f"{live_server.url}/tournaments/{round_.tournament.slug}/judge/")
    group = page.locator("#alert-group-limit-60")
    group.wait_for()
    assert "60 minutter — tiden er gået" in group.inner_text()
    assert "100 borde" in group.inner_text()
    assert group.locator(".alert-group__tables").inner_text().startswith("Borde 1, 2, 3, 4,")
    # Twelve tiles at first, the other 88 folded; no 50-minute box for tables past the limit.
    assert group.locator(".alert-group__tiles").first.locator(".alert-tile").count() == 12
    assert "Vis de øvrige 88 borde" in group.inner_text()
    assert page.locator("#alert-group-alert-50").count() == 0
    button = group.get_by_role("button", name="Jeg kommer til alle 100")
    assert button.bounding_box()["y"] < 844  # on the first screen of a phone
    button.click()
    page.locator("#judge-acknowledged:not([hidden])").wait_for()
    assert "Ingen åbne alarmer." in page.locator("#judge-alerts").inner_text()
    assert "Kvitterede alarmer (200)" in page.locator("#judge-acknowledged").inner_text()
    assert Alert.objects.filter(acknowledged_by__username="judge").count() == 200
