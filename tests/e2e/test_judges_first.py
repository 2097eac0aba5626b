"""Judges first, on a phone: the urgent things on the first screen, the sound
switch that the device remembers, one form that decides a timed-out game, and
a review page of at most two screens."""

from __future__ import annotations

import datetime
import os

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import selfplay_game
from games.selectors import log_cache
from games.services import clock as clock_service
from games.services.clock import clock_start
from games.services.move_log import move_submit
from judging.services.alerts import alerts_raise_due
from judging.services.calls import judge_call_create
from tests.e2e.conftest import login
from tests.factories import GameFactory, RoundFactory, judge_of

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]
SHOTS = os.environ.get("JUDGE_SHOTS")  # a folder to keep screenshots in, when looking at them


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name), full_page=True)


def _log(game, moves):
    for i, text in enumerate(moves):
        move_submit(game=game, text=text, client_id=f"setup-{game.pk}-{i:04d}", expected_seq=i)


@pytest.fixture
def busy_round(monkeypatch):
    """Eight tables: one past the limit, one at 50 minutes, one calling a judge."""
    monkeypatch.setattr(clock_service, "_schedule_marks", lambda clocks: None)  # no broker
    log_cache.clear()
    round_ = RoundFactory(status="in_progress")
    now = timezone.now()
    games = {n: GameFactory(round=round_, table_number=n) for n in range(1, 9)}
    for n, game in games.items():
        minutes = {2: 51, 3: 61}.get(n, 20)
        clock_start(game=game, at=now - datetime.timedelta(minutes=minutes))
    moves = selfplay_game(7, first_dealer="Y")["moves"]
    _log(games[3], moves[:40])
    _log(games[5], moves[:12])
    alerts_raise_due()
    judge_call_create(game=games[5], client_id="call-5", reason="Er syveren delt rigtigt?", seq=12)
    judge_of(round_.tournament)
    yield round_, games
    log_cache.clear()


@pytest.mark.parametrize("size", PHONES, ids=["390x844", "360x740"])
def test_the_urgent_things_are_on_the_first_screen(page, live_server, busy_round, size):
    round_, games = busy_round
    page.set_viewport_size(size)
    login(page, live_server, "judge")
    page.goto(f"{live_server.url}/tournaments/{round_.tournament.slug}/judge/")
    expect(page.locator("#judge-calls li[data-call-id]")).to_have_count(1)
    expect(page.locator("#alert-group-limit-60")).to_be_visible()
    _shot(page, f"dashboard-{size['width']}.png")
    for selector in ("#judge-calls li[data-call-id]", "#alert-group-limit-60"):
        box = page.locator(selector).bounding_box()
        assert box["y"] + 40 < size["height"], selector
