"""The table device on an event of another ruleset: it says every move is checked
online, and entries are played through the server's engine (headless Chromium)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from games.selectors import log_cache
from games.services.tokens import game_token
from tests.e2e.table_page import stored, type_move
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("ruleset", ["rulebook", "fr"])
def test_a_table_on_another_ruleset_plays_online_and_says_so(browser, live_server, ruleset):
    log_cache.clear()
    cache.clear()
    game = GameFactory(first_dealer="Y", round__tournament__ruleset=ruleset)
    ctx = browser.new_context(locale="da-DK", viewport={"width": 390, "height": 844})
    ctx.set_default_timeout(10_000)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server.url}/t/{game_token(game=game)}/")
        notice = page.locator(".online-notice")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("serveren")
        page.screenshot(path=f"/tmp/w17_table_{ruleset}.png", full_page=True)
        type_move(page, "11: in")  # Red opens; the server's engine checks it
        expect(page.locator("#preview-entry")).to_have_text("R 11: in")
        page.click("#confirm-move")
        expect(page.locator("#seq")).to_have_text("1")
        assert stored(game) == ["R 11: in"]
        type_move(page, "5: RS+5")  # Blue has no pawn there: the engine refuses it
        expect(page.locator("#typed-error, #error").first).to_be_visible()
        assert stored(game) == ["R 11: in"]
    finally:
        ctx.close()


def test_the_rulebook_board_counts_0_and_draws_pawns_on_own_15(browser, live_server):
    from games.engine import RULEBOOK, replay, selfplay_game
    from games.services.move_log import move_submit

    log_cache.clear()
    cache.clear()
    record = selfplay_game(11, RULEBOOK, first_dealer="Y")
    moves = record["moves"]
    stop = next(
        n
        for n in range(1, len(moves))
        if any(
            loc.endswith("15")
            for locs in replay(dict(record, moves=moves[:n])).position.to_json().values()
            for loc in locs
        )
    )
    game = GameFactory(first_dealer="Y", round__tournament__ruleset="rulebook")
    for i, text in enumerate(moves[:stop]):
        move_submit(game=game, text=text, client_id=f"setup-{i:04d}", expected_seq=i)
    own_15 = [
        loc
        for locs in replay(dict(record, moves=moves[:stop])).position.to_json().values()
        for loc in locs
        if loc.endswith("15")
    ]
    ctx = browser.new_context(locale="da-DK", viewport={"width": 390, "height": 844})
    ctx.set_default_timeout(10_000)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server.url}/t/{game_token(game=game)}/")
        expect(page.locator(f'#board .pawn[data-loc="{own_15[0]}"]').first).to_be_visible()
        expect(page.locator('#board .place[data-loc="YS"] text')).to_have_text("0")
        page.screenshot(path="/tmp/w17_table_rulebook_15.png", full_page=True)
    finally:
        ctx.close()
