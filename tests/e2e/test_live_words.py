"""The public live view reads in words: the log in plain Danish/English with the
notation and hashes on demand, and a clock that says how much time is left."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engine import DUO, selfplay_game
from games.models import Game
from games.selectors import log_cache
from games.services.clock import clock_start_round
from games.services.move_log import move_submit
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db(transaction=True)

# The first entries of this game: "R X: 1 2 7 9", "B 11: in", …, "B 10: BS+10", …
FIRST = selfplay_game(7, first_dealer="Y")["moves"][:12]


@pytest.fixture(autouse=True)
def _fresh_caches():
    log_cache.clear()
    yield
    log_cache.clear()


def _game() -> Game:
    game = GameFactory(first_dealer="Y")
    for i, text in enumerate(FIRST):
        move_submit(game=game, text=text, client_id=f"words-{i:06d}", expected_seq=i)
    clock_start_round(round=game.round)
    return game


def _url(live_server, game) -> str:  # type: ignore[no-untyped-def]
    slug, number = game.round.tournament.slug, game.round.number
    return f"{live_server.url}/tournaments/{slug}/rounds/{number}/tables/{game.table_number}/"


def _entry(page, seq: int):  # type: ignore[no-untyped-def]
    return page.locator("#log li").filter(has_text=re.compile(rf"^{seq}\. "))


def test_the_live_log_speaks_danish_and_hides_the_notation(page, live_server):
    assert FIRST[0] == "R X: 1 2 7 9" and FIRST[1] == "B 11: in" and FIRST[4] == "B 10: BS+10"
    game = _game()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(_url(live_server, game))

    discard, enter, move = _entry(page, 1), _entry(page, 2), _entry(page, 5)
    words = ".entry-words"
    expect(discard.locator(words)).to_have_text("1. Rød kaster hånden: 1, 2, 7, 9")
    expect(enter.locator(words)).to_have_text("2. Blå spiller 11: ny brik ind på startfeltet")
    expect(move.locator(words)).to_have_text("5. Blå spiller 10: brikken på BS rykker 10 frem")
    # The notation and the hash are there, but not shown until asked for.
    short = page.locator("#log li .entry-notation").first.text_content() or ""
    hash_ = short.split("#")[-1].strip()
    assert re.fullmatch(r"[0-9a-f]{6,}", hash_)
    log_text = page.locator("#log").inner_text()
    assert "#" not in log_text and hash_ not in log_text and "BS+10" not in log_text
    expect(page.locator("#short-hash")).to_be_hidden()
    expect(move.locator(".entry-notation")).to_be_hidden()
    page.locator("#show-notation").check()
    expect(move.locator(".entry-notation")).to_be_visible()
    expect(move.locator(".entry-notation code")).to_have_text("B 10: BS+10")
    expect(page.locator("#short-hash")).to_be_visible()
    # The clock says it is the time left.
    clock = page.locator("section.table-head .game-clock")
    expect(clock.locator(".game-clock__time")).to_have_text(re.compile(r"^59:[0-5]\d$"))
    expect(clock.locator(".game-clock__label")).to_have_text("tilbage")
    page.locator("#show-notation").uncheck()
    page.screenshot(path="/tmp/live-words-da.png", full_page=False)


def test_the_live_log_speaks_english(browser, live_server):  # type: ignore[no-untyped-def]
    game = _game()
    ctx = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844})
    ctx.set_default_timeout(10_000)
    try:
        page = ctx.new_page()
        page.goto(_url(live_server, game))
        page.click("a.lang-link[lang=en]")
        expect(_entry(page, 1).locator(".entry-words")).to_have_text(
            "1. Red discards the hand: 1, 2, 7, 9"
        )
        expect(_entry(page, 2).locator(".entry-words")).to_have_text(
            "2. Blue plays 11: a new pawn enters on the start field"
        )
        expect(_entry(page, 5).locator(".entry-words")).to_have_text(
            "5. Blue plays 10: the pawn on BS moves 10 forward"
        )
        assert "#" not in page.locator("#log").inner_text()
        expect(page.locator("section.table-head .game-clock__label")).to_have_text("left")
    finally:
        ctx.close()


def test_a_duo_live_log_names_the_areas(page, live_server):  # type: ignore[no-untyped-def]
    moves = selfplay_game(3, DUO, first_dealer="Y")["moves"][:8]
    assert moves[0] == "R 6: in RK" and moves[7] == "Y 9: YO7<>YO8"
    game = GameFactory(first_dealer="Y", round__tournament__ruleset="duo")
    for i, text in enumerate(moves):
        move_submit(game=game, text=text, client_id=f"duo-words-{i:06d}", expected_seq=i)
    page.goto(_url(live_server, game))
    expect(_entry(page, 1).locator(".entry-words")).to_have_text(
        "1. Rød spiller 6: ny brik ind på Rød knop"
    )
    expect(_entry(page, 8).locator(".entry-words")).to_have_text(
        "8. Gul spiller 9: brikkerne på YO7 og YO8 bytter plads"
    )
    assert "#" not in page.locator("#log").inner_text()


def test_a_hit_is_said_after_the_move(page, live_server):  # type: ignore[no-untyped-def]
    moves = selfplay_game(7, first_dealer="Y")["moves"][:35]
    assert moves[34] == "B 5: B7+5"  # hits a pawn of Yellow on B12
    game = GameFactory(first_dealer="Y")
    for i, text in enumerate(moves):
        move_submit(game=game, text=text, client_id=f"hit-words-{i:06d}", expected_seq=i)
    page.goto(_url(live_server, game))
    expect(_entry(page, 35).locator(".entry-words")).to_have_text(
        "35. Blå spiller 5: brikken på B7 rykker 5 frem; Gul slås hjem fra B12"
    )
