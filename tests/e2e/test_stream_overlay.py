"""The stream overlay at 1920×1080: the organiser sends another table to the stream
and the overlay follows it without reloading; a move at the table shows up."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from competition.services.stream import stream_table_set
from games.engine import selfplay_game
from games.models import Game
from games.selectors import log_cache
from games.services.clock import clock_start_round
from games.services.move_log import move_submit
from tests.factories import GameFactory, RoundFactory, organiser_of
from tournament.models import Round

pytestmark = pytest.mark.django_db(transaction=True)

MOVES = selfplay_game(7, first_dealer="Y")["moves"]


@pytest.fixture(autouse=True)
def _fresh_caches():
    log_cache.clear()
    yield
    log_cache.clear()


def _log(game: Game, moves: list[str], start: int = 0) -> None:
    for i, text in enumerate(moves, start=start):
        move_submit(game=game, text=text, client_id=f"stream-{game.pk}-{i:06d}", expected_seq=i)


@pytest.mark.parametrize("bg", ["transparent", "green"])
def test_the_overlay_switches_tables_without_reloading(page, live_server, bg):  # type: ignore[no-untyped-def]
    round_ = RoundFactory(status=Round.Status.IN_PROGRESS)
    one = GameFactory(round=round_, table_number=1, first_dealer="Y")
    two = GameFactory(round=round_, table_number=7, first_dealer="Y")
    _log(one, MOVES[:10])
    _log(two, MOVES[:20])
    clock_start_round(round=round_)
    organiser = organiser_of(round_.tournament)
    stream_table_set(tournament=round_.tournament, actor=organiser, game_id=one.pk)

    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/tournaments/{round_.tournament.slug}/stream/?bg={bg}")
    page.evaluate("window.__sameDocument = true")
    expect(page.locator("body")).to_have_attribute("data-game", str(one.pk))
    expect(page.locator("#stream-title")).to_contain_text("1")
    expect(page.locator("#stream-seats li")).to_have_count(4)
    expect(page.locator("#stream-moves li")).to_have_count(5)
    expect(page.locator("#stream-moves li").first).to_contain_text("10.")
    expect(page.locator("#stream-clock .game-clock__time")).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(page.locator("#board .pawn")).to_have_count(16)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == ("rgba(0, 0, 0, 0)" if bg == "transparent" else "rgb(0, 177, 64)")
    page.screenshot(path=f"/tmp/stream-{bg}-1.png", omit_background=bg == "transparent")

    # The organiser sends table 7: the overlay follows by itself, same document.
    stream_table_set(tournament=round_.tournament, actor=organiser, game_id=two.pk)
    expect(page.locator("body")).to_have_attribute("data-game", str(two.pk), timeout=8000)
    expect(page.locator("#stream-title")).to_contain_text("7")
    expect(page.locator("#stream-moves li").first).to_contain_text("20.")
    # A move at table 7 reaches the overlay.
    _log(two, MOVES[20:21], start=20)
    expect(page.locator("#stream-moves li").first).to_contain_text("21.", timeout=8000)
    assert page.evaluate("window.__sameDocument") is True
    page.screenshot(path=f"/tmp/stream-{bg}-2.png")

    # Taken off the stream: no table, still no reload.
    stream_table_set(tournament=round_.tournament, actor=organiser, game_id=None)
    expect(page.locator("#stream-none")).to_be_visible(timeout=8000)
    assert page.evaluate("window.__sameDocument") is True
