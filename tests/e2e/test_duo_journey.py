"""A Partners DUO event in a real browser, from the organiser's first page to the standings.

The organiser creates a DUO tournament (singles: docs/rulesets/duo.md S1),
registers four players one by one and checks them in, pairs round 1 from the
dashboard, publishes and starts it. At table 1 the table device (a 390×844
phone opened by the table's link) logs the opening entries by taps: card,
home circle, confirm (C3). The organiser enters both tables' results on the
round page and closes the round; the public standings list the four players,
the two winners first.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from games.services.tokens import game_token
from tests.e2e.conftest import login
from tests.e2e.table_page import stored, tap
from tests.factories import UserFactory
from tournament.models import Pair, Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Anne Als", "Bo Bak", "Carl Carlsen", "Dorte Dam"]


def _follow(page: Page, locator: str, url: str | re.Pattern[str]) -> None:
    """The link or button exists, and following it leads to ``url``."""
    link = page.locator(locator).first
    expect(link).to_be_visible()
    link.click()
    page.wait_for_url(url)
    page.wait_for_load_state("networkidle")


def _log_opening_entries(browser, live_server, game: Game) -> None:  # type: ignore[no-untyped-def]
    """The table's phone: each player enters a pawn by tapping card, home circle, confirm."""
    ctx = browser.new_context(locale="da-DK", viewport={"width": 390, "height": 844})
    ctx.set_default_timeout(10_000)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server.url}/t/{game_token(game=game)}/")
        expect(page.locator("#board .pawn")).to_have_count(12)
        opener = "R" if game.first_dealer == "Y" else "Y"  # D2: the player who did not deal
        other = "Y" if opener == "R" else "R"
        page.click('#cards button[data-card="1"]')
        tap(page, opener + "KH")
        expect(page.locator("#preview-entry")).to_have_text(f"{opener} 1: in {opener}K")
        page.click("#confirm-move")
        expect(page.locator("#seq")).to_have_text("1")
        page.click('#cards button[data-card="8"]')
        tap(page, other + "OH")
        expect(page.locator("#preview-entry")).to_have_text(f"{other} 8: in {other}O")
        page.click("#confirm-move")
        expect(page.locator("#seq")).to_have_text("2")
        page.screenshot(path="/tmp/duo_journey_table.png")
    finally:
        ctx.close()
    assert stored(game) == [f"{opener} 1: in {opener}K", f"{other} 8: in {other}O"]


def test_a_duo_event_from_creation_to_standings(page, browser, live_server):
    UserFactory(username="duo-arrangoer")
    page.set_default_timeout(15_000)
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_server, "duo-arrangoer")
    _follow(page, "a[href='/organise/new/']", "**/organise/new/")
    page.fill("input[name=name]", "DUO-cup Odense")
    page.fill("input[name=date]", "2026-11-28")
    page.fill("input[name=venue]", "Odense")
    page.select_option("select[name=ruleset]", "duo")
    page.fill("input[name=swiss_rounds]", "1")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_url(re.compile(r"/organise/[-\w]+/$"))
    tournament = Tournament.objects.get(name="DUO-cup Odense")
    slug = tournament.slug
    assert tournament.ruleset == "duo"

    # Four players, one at a time, checked in as they register (S1: singles).
    page.goto(f"{live_server.url}/organise/{slug}/pairs/")
    for name in PLAYERS:
        page.fill("#register-form input[name=player_1]", name)
        page.check("#register-form input[name=check_in]")
        page.click("#register-form button[type=submit]")
        page.wait_for_load_state("networkidle")
    expect(page.locator("tr.status-checked_in")).to_have_count(4)
    assert all(p.player_2 is None for p in Pair.objects.filter(tournament=tournament))

    # Round 1: paired from the dashboard, published and started.
    _follow(page, f"nav.subnav a[href='/organise/{slug}/']", f"**/organise/{slug}/")
    page.click("#pair-round-form button[type=submit]")
    page.wait_for_url(f"**/organise/{slug}/rounds/1/")
    expect(page.locator("li.table-card")).to_have_count(2)
    page.click("#publish-round")
    page.wait_for_load_state("networkidle")
    page.click("#start-round")
    page.wait_for_load_state("networkidle")
    round_ = Round.objects.get(tournament=tournament, number=1)
    games = list(Game.objects.filter(round=round_).order_by("table_number"))
    assert all(g.first_dealer in ("Y", "R") for g in games)

    # Table 1 logs its opening entries on the device.
    _log_opening_entries(browser, live_server, games[0])

    # The organiser enters the results (Yellow wins both) and closes the round.
    page.reload()
    for game in games:
        card = page.locator(f"#table-{game.table_number}")
        card.locator("input[type=radio][value=YB]").check()
        card.locator("form.result-form button[type=submit]").click()
        page.wait_for_load_state("networkidle")
        expect(page.locator(f"#table-{game.table_number}.has-result")).to_have_count(1)
    page.click("#close-round")
    page.wait_for_load_state("networkidle")
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED

    # The public standings: four players, one name each, the winners first.
    page.goto(f"{live_server.url}/tournaments/{slug}/standings/")
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(4)
    winners = {g.pair_yb.player_1.name for g in games}
    top = {rows.nth(i).locator("td:nth-child(2) a").inner_text().strip() for i in range(2)}
    assert top == winners
    assert " & " not in page.locator("table.standings").inner_text()
    page.screenshot(path="/tmp/duo_journey_standings.png", full_page=True)
