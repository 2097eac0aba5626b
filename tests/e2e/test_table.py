"""The table page in headless Chromium: play, refuse, go offline and sync."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from games.models import MoveEntry
from games.selectors import log_cache
from games.services.tokens import game_token
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
    page.locator(f'#board [data-loc="{loc}"]').first.click()
    expect(page.locator("#preview")).to_be_visible()
    page.click("#confirm-move")


def log_by_typing(page, text):
    page.fill("#typed", text)
    page.click("#typed-form button[type=submit]")
    expect(page.locator("#preview")).to_be_visible()
    page.click("#confirm-move")


def active_texts(game):
    return list(
        MoveEntry.objects.filter(game=game, withdrawn_at__isnull=True)
        .order_by("seq")
        .values_list("text", flat=True)
    )


def test_play_first_moves_on_the_board(page, table):
    game, url = table
    page.goto(url)
    expect(page.locator("#turn")).to_contain_text("Rød")  # Danish page, Red to move
    log_by_tapping(page, "11", "RH")
    expect(page.locator("#seq")).to_have_text("1")
    expect(page.locator("#turn")).to_contain_text("Blå")
    log_by_tapping(page, "8", "BH")
    expect(page.locator("#seq")).to_have_text("2")
    log_by_typing(page, "13: in")
    expect(page.locator("#seq")).to_have_text("3")
    assert active_texts(game) == ["R 11: in", "B 8: in", "G 13: in"]
    last = MoveEntry.objects.get(game=game, seq=3)
    expect(page.locator("#short-hash")).to_have_text(last.hash[:8])
    expect(page.locator("#net-status")).to_have_text("Online")


def test_illegal_move_shows_the_engines_message_and_rule(page, table):
    game, url = table
    page.goto(url)
    page.fill("#typed", "5: R3+5")
    page.click("#typed-form button[type=submit]")
    error = page.locator("#error")
    expect(error).to_be_visible()
    expect(error.locator(".rule")).to_have_text(re.compile(r"^regel [A-Z]\d*$"))
    assert error.locator("p").inner_text().strip()
    expect(page.locator("#preview")).to_be_hidden()
    assert active_texts(game) == []


def test_offline_entries_are_queued_and_synced_once(page, context, table):
    game, url = table
    page.goto(url)
    log_by_tapping(page, "11", "RH")
    expect(page.locator("#seq")).to_have_text("1")
    context.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    log_by_typing(page, "8: in")  # Blue, checked locally
    log_by_typing(page, "13: in")  # Green, provisional
    status = page.locator("#net-status")
    expect(status).to_contain_text("Offline")
    expect(status).to_contain_text("2 venter")
    assert active_texts(game) == ["R 11: in"]
    # Nothing is lost on reload while offline: the queue is in localStorage.
    queued = page.evaluate(f"JSON.parse(localStorage.getItem('dmp-table-{game.pk}')).queue.length")
    assert queued == 2
    context.set_offline(False)
    expect(page.locator("#seq")).to_have_text("3", timeout=15_000)
    expect(status).to_have_text("Online")
    assert active_texts(game) == ["R 11: in", "B 8: in", "G 13: in"]
    assert MoveEntry.objects.filter(game=game).count() == 3


def test_queue_survives_a_reload(page, context, table):
    game, url = table
    page.goto(url)
    context.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    log_by_typing(page, "11: in")
    context.set_offline(False)
    page.reload()
    expect(page.locator("#seq")).to_have_text("1", timeout=15_000)
    assert active_texts(game) == ["R 11: in"]


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
    expect(page.locator('#board [data-loc="BH"]').first).to_be_visible()
    with page.expect_response(lambda res: "/state/?tail=20" in res.url, timeout=8000) as poll:
        pass  # table.js polls every 5 s
    assert poll.value.status == 304
    assert 200 not in states
