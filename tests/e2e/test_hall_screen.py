"""The hall screen on a 1920×1080 projector with 100 tables, on a laptop and on a phone.

A projector shows at least 50 tables per page in type readable from the back
of a hall (table number ≥ 28 px, names ≥ 18 px), turns its pages by itself
(``?turn=N`` seconds) with "1/2" in the corner, and puts the urgent tables
first: an open judge call, a judge on the way, past the time limit, past
the alert mark. A phone scrolls one column and never sideways.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.core.cache import cache
from django.utils import timezone
from playwright.sync_api import expect

from games.models import GameClock
from games.selectors import log_cache
from games.services.clock import clock_start_round
from games.services.judges import JudgeAtEvent
from judging.services.calls import judge_call_create, judge_call_take
from tests.factories import (
    GameFactory,
    PairFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    judge_of,
)
from tournament.models import Round

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp")
FIRST = ["Mette", "Søren", "Anne-Grethe", "Jens", "Kirsten", "Bo", "Henriette", "Mikkel", "Lis"]
LAST = ["Kristensen", "Østergaard", "Hansen", "Vestergaard-Nielsen", "Bæk", "Møller", "Skov"]
# What each page shows: the tables drawn (not hidden) and wholly inside the screen.
ON_SCREEN = """() => [...document.querySelectorAll('.hall-table')]
  .filter(c => !c.hidden && c.getBoundingClientRect().height > 0
          && c.getBoundingClientRect().bottom <= innerHeight + 0.5
          && c.getBoundingClientRect().right <= innerWidth + 0.5)
  .map(c => Number(c.dataset.table))"""
SIZES = """() => {
 const px = (s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize);
 return {
  number: px('.hall-title'),
  name: px('.hall-team .name'),
  locked: px('.hall-locked'),
  clock: px('.hall-table .game-clock__time'),
  scrollX: document.documentElement.scrollWidth - innerWidth,
  scrollY: document.documentElement.scrollHeight - innerHeight,
 };
}"""


@pytest.fixture(autouse=True)
def _fresh_caches():
    log_cache.clear()
    cache.clear()
    yield
    log_cache.clear()
    cache.clear()


def _hall(slug: str, tables: int) -> dict[int, object]:
    tournament = TournamentFactory(slug=slug)
    round_ = RoundFactory(tournament=tournament, number=3, status=Round.Status.PUBLISHED)
    games = {}
    for n in range(1, tables + 1):
        pairs = []
        for side in range(2):
            i = 2 * n + side
            players = [
                PlayerFactory(
                    tournament=tournament,
                    name=f"{FIRST[(i + k) % len(FIRST)]} {LAST[(i * 3 + k) % len(LAST)]}",
                )
                for k in range(2)
            ]
            pairs.append(
                PairFactory(tournament=tournament, player_1=players[0], player_2=players[1])
            )
        games[n] = GameFactory(round=round_, table_number=n, pair_yb=pairs[0], pair_rg=pairs[1])
    clock_start_round(round=round_)
    return games


def _make_urgent(games) -> None:
    """Table 37 calls a judge, 12's judge is on the way, 73 is past 60 minutes, 88 past 50."""
    now = timezone.now()
    GameClock.objects.filter(game=games[73]).update(started_at=now - datetime.timedelta(minutes=62))
    GameClock.objects.filter(game=games[88]).update(started_at=now - datetime.timedelta(minutes=53))
    judge_call_create(game=games[37], client_id="hall-screen-37")
    taken = judge_call_create(game=games[12], client_id="hall-screen-12")
    judge_call_take(
        call=taken, judge=JudgeAtEvent(taken.tournament, judge_of(games[12].round.tournament))
    )
    cache.clear()


def test_a_projector_shows_fifty_tables_a_page_and_turns_to_the_rest(page, live_server):
    games = _hall("dm-hall-100", 100)
    _make_urgent(games)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/tournaments/dm-hall-100/hall/?turn=3")

    # Urgent first (after the first poll), then the table order.
    first = page.locator(".hall-table").first
    expect(first).to_have_attribute("data-table", "37")
    expect(first).to_contain_text("Dommer kaldt")
    order = page.eval_on_selector_all(".hall-table", "cs => cs.map(c => Number(c.dataset.table))")
    assert order[:4] == [37, 12, 73, 88]
    assert order[4:] == [n for n in range(1, 101) if n not in (37, 12, 73, 88)]
    expect(page.locator('.hall-table[data-table="12"]')).to_contain_text("Dommer på vej")
    expect(page.locator('.hall-table[data-table="73"]')).to_contain_text("Tiden er gået")
    expect(page.locator('.hall-table[data-table="88"]')).to_contain_text("50+ min")

    indicator = page.locator("#hall-pages")
    page.screenshot(path=str(SHOTS / "hall_1920_page1.png"))
    expect(indicator).to_have_text("1/2")
    one = page.evaluate(ON_SCREEN)
    sizes = page.evaluate(SIZES)
    assert len(one) >= 50, len(one)
    assert sizes["scrollX"] <= 0 and sizes["scrollY"] <= 0, sizes
    assert sizes["number"] >= 28 and sizes["clock"] >= 28, sizes
    assert sizes["name"] >= 18 and sizes["locked"] >= 18, sizes
    page.screenshot(path=str(SHOTS / "hall_1920_page1.png"))

    # The page turns by itself: the rest of the tables, then the first page again.
    expect(indicator).to_have_text("2/2", timeout=6000)
    two = page.evaluate(ON_SCREEN)
    assert not set(one) & set(two)
    assert sorted(one + two) == list(range(1, 101))
    assert page.evaluate(SIZES)["scrollY"] <= 0
    page.screenshot(path=str(SHOTS / "hall_1920_page2.png"))
    expect(indicator).to_have_text("1/2", timeout=6000)
    assert page.evaluate(ON_SCREEN) == one


def test_a_laptop_shows_a_dozen_tables_on_one_page(page, live_server):
    games = _hall("dm-hall-12", 12)
    GameClock.objects.filter(game=games[5]).update(
        started_at=timezone.now() - datetime.timedelta(minutes=55)
    )
    cache.clear()
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/tournaments/dm-hall-12/hall/")
    expect(page.locator(".hall-table").first).to_have_attribute("data-table", "5")
    assert sorted(page.evaluate(ON_SCREEN)) == list(range(1, 13))
    expect(page.locator("#hall-pages")).to_be_hidden()  # one page: no "1/1"
    sizes = page.evaluate(SIZES)
    assert sizes["scrollX"] <= 0 and sizes["scrollY"] <= 0, sizes
    assert sizes["number"] >= 24 and sizes["name"] >= 16, sizes
    page.screenshot(path=str(SHOTS / "hall_1366.png"))


@pytest.mark.parametrize("width,height", [(390, 844), (360, 740)])
def test_a_phone_scrolls_the_tables_down_never_sideways(page, live_server, width, height):
    _hall("dm-hall-phone", 100)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/tournaments/dm-hall-phone/hall/?turn=2")
    expect(page.locator(".hall-table .game-clock__time")).to_have_count(100)
    # No paging on a phone: every table is there to scroll to.
    assert page.locator(".hall-table[hidden]").count() == 0
    expect(page.locator("#hall-pages")).to_be_hidden()
    sizes = page.evaluate(SIZES)
    assert sizes["scrollX"] <= 0, sizes
    assert sizes["scrollY"] > 0
    page.screenshot(path=str(SHOTS / f"hall_{width}.png"))
