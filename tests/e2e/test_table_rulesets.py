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
