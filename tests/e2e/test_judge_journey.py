"""A judge's round in headless Chromium, on a phone, from the login form.

Alert → call → replay → ruling → play resumes: each step is reached by a
link or button of the step before it, and each leads on to the next.
"""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import selfplay_game
from games.selectors import log_cache
from games.services import clock as clock_service
from games.services.clock import clock_start
from games.services.move_log import move_submit
from games.services.tokens import game_token
from judging.models import Alert, JudgeCall, Ruling
from judging.services.alerts import alerts_raise_due
from tests.factories import GameFactory, RoundFactory, judge_of

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


def test_alert_call_replay_ruling_and_play_resumes(browser, live_server, monkeypatch):
    monkeypatch.setattr(clock_service, "_schedule_marks", lambda clocks: None)  # no broker
    log_cache.clear()
    round_ = RoundFactory(status="in_progress")
    tournament = round_.tournament
    quiet = GameFactory(round=round_, table_number=1, first_dealer="Y")
    game = GameFactory(round=round_, table_number=2, first_dealer="Y")
    judge_of(tournament, "dommer")
    moves = selfplay_game(7, first_dealer="Y")["moves"]
    clock_start(game=quiet, at=timezone.now() - datetime.timedelta(minutes=20))
    clock_start(game=game, at=timezone.now() - datetime.timedelta(minutes=51))
    for i, text in enumerate(moves[:12]):
        move_submit(game=game, text=text, client_id=f"setup-{i:04d}", expected_seq=i)
    assert alerts_raise_due() == 1
    contexts = []

    def phone():
        ctx = browser.new_context(viewport=PHONE, locale="da-DK", timezone_id="Europe/Copenhagen")
        ctx.set_default_timeout(10_000)
        contexts.append(ctx)
        return ctx.new_page()

    try:
        # Log in: the login form takes the judge to the dashboard it was sent to.
        judge = phone()
        dashboard_url = f"/tournaments/{tournament.slug}/judge/"
        judge.goto(f"{live_server.url}/login/?next={dashboard_url}")
        judge.fill("input[name=username]", "dommer")
        judge.fill("input[name=password]", "pw-for-tests")
        judge.click("form.form button[type=submit]")
        expect(judge.locator("h1")).to_contain_text("Dommeroversigt")
        assert judge.url.endswith(dashboard_url)

        # 1. The alert: table 2 at the 50-minute mark, in plain words, acknowledged.
        group = judge.locator("#alert-group-alert-50")
        expect(group).to_contain_text("Bord 2")
        alert = Alert.objects.get(game=game)
        tile = judge.locator(f"#alert-{alert.pk}")
        expect(tile).to_contain_text("min over tid")  # the forecast from the table's moves
        tile.get_by_role("button", name="Jeg kommer til bord 2").click()
        expect(judge.locator("#judge-acknowledged")).to_contain_text("Kvitterede alarmer (1)")
        assert Alert.objects.get(pk=alert.pk).acknowledged_by.username == "dommer"

        # 2. The table calls a judge about its last entry; the clock pauses.
        table = phone()
        table.goto(f"{live_server.url}/t/{game_token(game=game)}/")
        table.click('button[data-sheet="judge"]')
        table.fill("#judge-call-seq", "12")
        table.fill("#judge-call-reason", "Er syveren delt rigtigt?")
        table.click("#judge-call-button")
        expect(table.locator("#judge-call-status")).to_contain_text("venter på en dommer")
        call = JudgeCall.objects.get(game=game)
        assert call.paused_clock

        # ... the call shows on the dashboard; the judge takes it and the table sees it.
        item = judge.locator(f'#judge-calls li[data-call-id="{call.pk}"]')
        expect(item).to_contain_text("Er syveren delt rigtigt?")
        item.locator("button.take-call").click()
        expect(item).to_contain_text("dommer")
        expect(table.locator("#judge-call-status")).to_contain_text("dommer", timeout=12_000)

        # 3. Replay: the call's link opens the table at the disputed entry, with its rule.
        item.locator("a.review-link").click()
        expect(judge.locator("#entry-text")).to_have_text(moves[11])
        expect(judge.locator("#rule-text")).to_contain_text("Regel")
        assert "**" not in judge.locator("#rule-text").inner_text()
        expect(judge.locator("#call-box")).to_contain_text("Er syveren delt rigtigt?")
        judge.click("#nav-prev")
        expect(judge.locator("#entry-text")).to_have_text(moves[10])
        judge.click("#nav-next")

        # 4. The ruling: uphold the entry; it closes the call and the clock runs again.
        judge.locator("#ruling-uphold > summary").click()
        judge.locator("#form-uphold textarea[name=reason]").fill("Syveren var delt lovligt")
        judge.locator("#form-uphold button[value=uphold]").click()
        expect(judge.locator(".messages .success")).to_contain_text(
            "Kendelsen er skrevet i spillets log: Loggen stadfæstet "
            "(Post 12 stadfæstet som logget). Tilkaldet er lukket, og uret kører igen."
        )
        expect(judge.locator("#call-box")).to_have_count(0)
        ruling = Ruling.objects.get(game=game)
        assert ruling.call_id == call.pk and ruling.judge.username == "dommer"
        assert JudgeCall.objects.get(pk=call.pk).status == JudgeCall.Status.CLOSED

        # 5. Play resumes: the table's clock runs, the ruling shows, the next move is logged.
        table.reload()
        expect(table.locator(".game-clock[data-clock-status=running]")).to_have_count(1)
        table.click('button[data-sheet="judge"]')
        expect(table.locator("#judge-rulings")).to_contain_text("Syveren var delt lovligt")
        table.click('#sheet [data-tab="type"]')
        table.fill("#typed", moves[12].split(" ", 1)[1])
        table.click("#typed-form button[type=submit]")
        expect(table.locator("#preview")).to_be_visible()
        table.click("#confirm-move")
        expect(table.locator("#seq")).to_have_text("14")

        # ... and the dashboard, one link back, shows the table running with no open call.
        judge.get_by_role("link", name="← Dommeroversigt").click()
        expect(judge.locator("#judge-calls")).to_contain_text("Ingen åbne tilkald.")
        expect(judge.locator(f"#table-{game.pk}")).to_have_attribute("data-status", "running")
    finally:
        for ctx in contexts:
            ctx.close()
