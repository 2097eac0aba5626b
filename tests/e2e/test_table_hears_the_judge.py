"""The table hears the judge (headless Chromium): a ruling on the table's game
is shown with its kind, the judge and the reason until the device acknowledges
it (also across a reload), and a paused clock says so and names the judge."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.services.clock import clock_pause, clock_start
from games.services.judges import JudgeAtGame
from judging.services.rulings import ruling_void
from tests.e2e.test_table_device import device, table_at  # noqa: F401  (fixture)
from tests.factories import judge_of

pytestmark = pytest.mark.django_db(transaction=True)


def named_judge(game):
    judge = judge_of(game.round.tournament, username="hj")
    judge.first_name, judge.last_name = "Hanne", "Jensen"
    judge.save()
    return judge


def test_a_void_is_told_with_its_reason_until_dismissed_also_after_reload(
    device,  # noqa: F811
    live_server,
    tmp_path,
):
    game, url = table_at(live_server, 6)
    judge = named_judge(game)
    _ctx, page = device(390, 844)
    page.goto(url)
    notice = page.locator("#ruling")
    expect(notice).to_be_hidden()
    ruling_void(game=game, actor=judge, seq=6, reason="Kortet var allerede spillet.")
    expect(notice).to_be_visible(timeout=10_000)
    expect(notice).to_contain_text("annullerede")
    expect(notice).to_contain_text("Kortet var allerede spillet.")
    expect(notice).to_contain_text("dommer Hanne Jensen")
    expect(notice).not_to_contain_text("hj ")
    page.screenshot(path=str(tmp_path / "ruling-notice.png"))
    page.click("#ruling-dismiss")
    expect(notice).to_be_hidden()
    page.reload()
    expect(page.locator("#board")).to_be_visible()
    page.wait_for_timeout(500)
    expect(notice).to_be_hidden()


def test_a_paused_clock_shows_paused_and_the_judge_by_name(device, live_server):  # noqa: F811
    game, url = table_at(live_server, 2)
    judge = named_judge(game)
    clock_start(game=game)
    clock_pause(judge=JudgeAtGame(game, judge), reason="Dommerkald")
    _ctx, page = device(390, 844)
    page.goto(url)
    clock = page.locator(".device-bar .game-clock")
    expect(clock).to_contain_text("Pause · dommer Hanne Jensen")
    expect(clock).to_have_attribute("data-clock-status", "paused")
