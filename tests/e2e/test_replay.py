"""The replay page in a browser: step with the keys, the buttons and the slider, the
position kept in the address and restored from a link, no sideways scroll on a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engine import selfplay_game
from games.models import Game
from games.selectors import log_cache
from games.services.move_log import move_submit
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = [(390, 844), (360, 740), (1366, 900)]


@pytest.fixture(autouse=True)
def _fresh_caches():
    log_cache.clear()
    yield
    log_cache.clear()


def _finished(entries: int = 40, **kwargs: object) -> Game:
    game = GameFactory(first_dealer="Y", **kwargs)
    rules = game.round.tournament.ruleset
    from games.engine import get_ruleset

    moves = selfplay_game(7, get_ruleset(rules), first_dealer="Y")["moves"][:entries]
    for i, text in enumerate(moves):
        move_submit(game=game, text=text, client_id=f"replay-e2e-{i:06d}", expected_seq=i)
    game.status = Game.Status.FINISHED
    game.save(update_fields=["status"])
    return game


def _url(live_server, game: Game) -> str:  # type: ignore[no-untyped-def]
    slug, number = game.round.tournament.slug, game.round.number
    return (
        f"{live_server.url}/tournaments/{slug}/rounds/{number}/tables/{game.table_number}/replay/"
    )


def _ply(page) -> int:  # type: ignore[no-untyped-def]
    found = re.search(r"[?&]ply=(\d+)", page.url)
    return int(found.group(1)) if found else -1


def _no_sideways_scroll(page) -> None:  # type: ignore[no-untyped-def]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_step_with_keys_and_slider_and_come_back_by_link(page, live_server, size):  # type: ignore[no-untyped-def]
    width, height = size
    game = _finished()
    page.set_viewport_size({"width": width, "height": height})
    page.goto(_url(live_server, game) + "?ply=5")
    slider = page.locator("#ply-slider")
    expect(slider).to_have_value("5")
    expect(page.locator("#replay-log li.current")).to_have_count(1)
    expect(page.locator("#replay-log li.current")).to_have_attribute("value", "5")
    # The pawns are drawn for entry 5.
    assert page.locator("#board .pawn").count() >= 16
    # Keys step and the address follows.
    scrolled = page.evaluate("window.scrollY")
    page.keyboard.press("ArrowRight")
    expect(slider).to_have_value("6")
    # Stepping keeps the page where it is (only the log's own box follows).
    assert page.evaluate("window.scrollY") == scrolled
    assert _ply(page) == 6
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(slider).to_have_value("4")
    assert _ply(page) == 4
    page.keyboard.press("End")
    expect(slider).to_have_value("40")
    page.keyboard.press("Home")
    expect(slider).to_have_value("0")
    expect(page.locator("#ply-prev")).to_be_disabled()
    # The buttons.
    page.locator("#ply-next").click()
    expect(slider).to_have_value("1")
    # The slider (its own keys step it too).
    slider.fill("23")
    expect(page.locator("#replay-log li.current")).to_have_attribute("value", "23")
    assert _ply(page) == 23
    slider.focus()
    page.keyboard.press("ArrowRight")
    expect(slider).to_have_value("24")
    assert _ply(page) == 24
    # The engine's legal moves of the card played, the player's choice marked.
    choice = page.locator("#ply-choice")
    if choice.is_visible():
        expect(choice.locator("li.chosen")).to_have_count(1)
    _no_sideways_scroll(page)
    page.screenshot(path=f"/tmp/replay-{width}x{height}.png", full_page=True)
    # A link to the position opens it.
    link = page.url
    page.goto(live_server.url + "/")
    page.goto(link)
    expect(page.locator("#ply-slider")).to_have_value("24")
    expect(page.locator("#replay-log li.current")).to_have_attribute("value", "24")
    words = page.locator("#ply-words").inner_text()
    assert words and page.locator("#replay-log li.current").inner_text().endswith(words)


def test_a_tap_on_the_distance_chart_jumps_there(page, live_server):  # type: ignore[no-untyped-def]
    game = _finished()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(_url(live_server, game))
    expect(page.locator("#ply-slider")).to_have_value("40")
    chart = page.locator("#distance-chart")
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert abs(int(page.locator("#ply-slider").input_value()) - 20) <= 1
    assert page.locator("#dist-yb").inner_text().isdigit()


@pytest.mark.parametrize("ruleset", ["rulebook", "fr", "duo"])
def test_every_ruleset_the_device_draws_replays(page, live_server, ruleset):  # type: ignore[no-untyped-def]
    game = _finished(30, round__tournament__ruleset=ruleset)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(_url(live_server, game) + "?ply=12")
    expect(page.locator("#ply-slider")).to_have_value("12")
    pawns = 12 if ruleset == "duo" else 16
    expect(page.locator("#board .pawn")).to_have_count(pawns)
    page.keyboard.press("ArrowRight")
    assert _ply(page) == 13
    _no_sideways_scroll(page)
    page.screenshot(path=f"/tmp/replay-{ruleset}-390.png", full_page=False)


def test_a_ruling_shows_where_it_was_given(page, live_server):  # type: ignore[no-untyped-def]
    from judging.services.rulings import ruling_void
    from tests.factories import judge_of

    game = _finished(12)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.IN_PROGRESS)
    ruling_void(
        game=game, actor=judge_of(game.round.tournament), seq=12, reason="Kortet var brugt."
    )
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(_url(live_server, game) + "?ply=12")
    expect(page.locator("#ply-rulings")).to_be_hidden()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#ply-words")).to_contain_text("Annulleret: post 12")
    expect(page.locator("#ply-rulings")).to_be_visible()
    expect(page.locator("#ply-rulings")).to_contain_text("Kortet var brugt.")
    expect(page.locator("#ply-choice")).to_be_hidden()
    # The voided entry is struck through in the log.
    expect(page.locator('#replay-log li[value="12"] s')).to_have_count(1)
    expect(page.locator('#replay-log li[value="11"] s')).to_have_count(0)
    _no_sideways_scroll(page)
    page.screenshot(path="/tmp/replay-ruling-390.png", full_page=True)
