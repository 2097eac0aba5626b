"""The table page in headless Chromium: play, refuse, go offline and sync."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from games.models import MoveEntry
from games.selectors import log_cache
from games.services.tokens import game_token
from tests.e2e.table_page import stored, tap, type_move
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(live_server):
    log_cache.clear()
    cache.clear()
    game = GameFactory(first_dealer="Y")  # Red opens
    return game, f"{live_server.url}/t/{game_token(game=game)}/"


def log_by_tapping(page, card, loc):
    page.click(f'#cards button[data-card="{card}"]')
    tap(page, loc)
    expect(page.locator("#preview")).to_be_visible()
    page.click("#confirm-move")


def log_by_typing(page, text):
    type_move(page, text)
    expect(page.locator("#preview")).to_be_visible()
    page.click("#confirm-move")


def test_play_first_moves_on_the_board(page, table):
    game, url = table
    page.goto(url)
    expect(page.locator("#turn")).to_contain_text("Rød i tur")  # Danish page, Red to move
    log_by_tapping(page, "11", "RH")
    expect(page.locator("#seq")).to_have_text("1")
    expect(page.locator("#turn")).to_contain_text("Blå")
    log_by_tapping(page, "8", "BH")
    expect(page.locator("#seq")).to_have_text("2")
    log_by_typing(page, "13: in")
    expect(page.locator("#seq")).to_have_text("3")
    assert stored(game) == ["R 11: in", "B 8: in", "G 13: in"]
    last = MoveEntry.objects.get(game=game, seq=3)
    expect(page.locator("#short-hash")).to_have_text(last.hash[:8])
    expect(page.locator("#net-status")).to_have_text("Online")


def test_illegal_typed_move_shows_the_engines_message_and_rule(page, table):
    game, url = table
    page.goto(url)
    type_move(page, "5: R3+5")
    error = page.locator("#typed-error")
    expect(error).to_be_visible()
    expect(error).to_have_text(re.compile(r".+ \(regel [A-Z]\d*\)$"))
    expect(page.locator("#preview")).to_be_hidden()
    assert stored(game) == []


def test_queue_survives_a_reload(page, context, table):
    game, url = table
    page.goto(url)
    context.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    log_by_typing(page, "11: in")
    expect(page.locator("#net-status")).to_have_text("Offline · 1")
    context.set_offline(False)
    page.reload()
    expect(page.locator("#seq")).to_have_text("1", timeout=15_000)
    assert stored(game) == ["R 11: in"]


def test_after_a_move_the_device_reads_nothing_and_its_poll_is_a_304(page, table):
    """The submission's answer brings the legal moves and the ETag of the state
    the page polls (?tail=20): no read after a write, and the poll finds it unchanged."""
    _game, url = table
    page.goto(url)
    states = []
    page.on(
        "response",
        lambda res: states.append(res.status) if "/state/" in res.url else None,
    )
    log_by_tapping(page, "11", "RH")
    expect(page.locator("#seq")).to_have_text("1")
    # The next move is offered at once from the answer's legal moves.
    page.click('#cards button[data-card="8"]')
    tap(page, "BH")
    expect(page.locator("#preview-entry")).to_have_text("B 8: in")
    with page.expect_response(lambda res: "/state/?tail=20" in res.url, timeout=8000) as poll:
        pass  # the device polls every 5 s
    assert poll.value.status == 304
    assert 200 not in states
