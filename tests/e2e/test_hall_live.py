"""The public live pages in headless Chromium: the hall screen and the live table view.

The hall screen reads every table's clock from the one hall API answer it
polls (no clock request per table); the live view and the table device poll
their state conditionally and still follow every change.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.cache import cache
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import selfplay_game
from games.models import GameClock
from games.selectors import log_cache
from games.services.clock import clock_start_round
from games.services.move_log import game_result_confirm, move_submit
from games.services.tokens import game_token
from tests.factories import GameFactory, RoundFactory, TournamentFactory
from tournament.models import Round

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_caches():
    log_cache.clear()
    cache.clear()
    yield
    log_cache.clear()
    cache.clear()


def test_the_hall_shows_every_clock_without_a_request_per_table(page, live_server):
    tournament = TournamentFactory(slug="dm-hall-e2e")
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.PUBLISHED)
    games = [GameFactory(round=round_, table_number=n + 1) for n in range(5)]
    clock_start_round(round=round_)
    # Table 5 has played 55 of its 60 minutes: past the judge alert at 50.
    started = timezone.now() - datetime.timedelta(minutes=55)
    GameClock.objects.filter(game=games[4]).update(started_at=started)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))

    page.goto(f"{live_server.url}/tournaments/dm-hall-e2e/hall/")

    times = page.locator(".hall-table .game-clock .game-clock__time")
    expect(times).to_have_count(5)
    for game in games[:4]:
        clock = page.locator(f'.hall-table[data-game="{game.pk}"] .game-clock')
        expect(clock.locator(".game-clock__time")).to_have_text(re.compile(r"^59:[0-5]\d$"))
        expect(clock).to_have_class(re.compile(r"\bgame-clock--running\b"))
        expect(clock).not_to_have_class(re.compile(r"\bgame-clock--alert\b"))
        expect(clock.locator(".game-clock__label")).to_have_text("Kører")
    late = page.locator(f'.hall-table[data-game="{games[4].pk}"] .game-clock')
    expect(late.locator(".game-clock__time")).to_have_text(re.compile(r"^[45]:[0-5]\d$"))
    expect(late).to_have_class(re.compile(r"\bgame-clock--alert\b"))
    # The clocks count down on their own between polls.
    first = page.locator(f'.hall-table[data-game="{games[0].pk}"] .game-clock__time')
    shown = first.inner_text()
    expect(first).not_to_have_text(shown, timeout=3000)

    assert [url for url in requests if "/clock/" in url] == []
    assert len([url for url in requests if url.endswith("/api/tournaments/dm-hall-e2e/hall/")]) == 1


def test_the_live_view_polls_conditionally_and_follows_a_move(page, live_server):
    game = GameFactory(first_dealer="Y")  # Red opens
    slug, number = game.round.tournament.slug, game.round.number
    page.goto(f"{live_server.url}/tournaments/{slug}/rounds/{number}/tables/{game.table_number}/")
    expect(page.locator("#seq")).to_have_text("0")

    # Nothing changed: the poll (every 3 s) answers 304 without a body.
    with page.expect_response(
        lambda r: f"/api/games/{game.pk}/state/?tail=" in r.url and r.status == 304,
        timeout=8000,
    ):
        pass
    move_submit(game=game, text="R 11: in", client_id="live-e2e-000001", expected_seq=0)

    expect(page.locator("#seq")).to_have_text("1", timeout=8000)
    expect(page.locator("#log li")).to_have_count(1)
    expect(page.locator("#log li").first).to_contain_text("R 11: in")
    expect(page.locator("#turn")).to_contain_text("Blå")


def test_the_table_device_sees_the_other_pairs_confirmation(page, live_server):
    game = GameFactory(first_dealer="Y")
    for i, text in enumerate(selfplay_game(7, first_dealer="Y")["moves"]):
        move_submit(game=game, text=text, client_id=f"setup-{i:06d}", expected_seq=i)
    page.goto(f"{live_server.url}/t/{game_token(game=game)}/")
    expect(page.locator("#result")).to_be_visible()
    other = page.locator('.confirm-btn[data-side="RG"]')
    expect(other).not_to_have_class(re.compile(r"\bdone\b"))

    # The device's idle poll (every 5 s) finds its state unchanged: 304.
    with page.expect_response(
        lambda r: "/api/table/" in r.url and "/state/?tail=20" in r.url and r.status == 304,
        timeout=12000,
    ):
        pass
    game_result_confirm(game=game, pair_side="RG", client_id="confirm-rg-e2e")

    expect(other).to_have_class(re.compile(r"\bdone\b"), timeout=12000)
    expect(other).to_be_disabled()
