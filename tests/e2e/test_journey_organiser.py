"""The organiser's whole event in a real browser, from an empty database, by links.

From the login form: a new tournament, the CSV import, check-in, three Monrad
rounds (pair, publish, print, start, results, close), the public standings,
the knockout from the bracket to the final, and the final standings. Each
step is reached by a link or button of the page before it; each is asserted
to exist and to lead on. Results are decided by the seed (the better seed
wins), so the top four after three rounds are clear of each other.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.e2e.conftest import login
from tests.e2e.data import PAIRS_CSV
from tests.factories import UserFactory
from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _follow(page: Page, locator: str, url: str | re.Pattern[str]) -> None:
    """The link or button exists, and following it leads to ``url``."""
    link = page.locator(locator).first
    expect(link).to_be_visible()
    link.click()
    page.wait_for_url(url)
    page.wait_for_load_state("networkidle")


def _better_seed_wins(page: Page, round_: Round) -> None:
    """Enter every table's result on the round page: the lower start number wins."""
    for game in Game.objects.filter(round=round_).select_related("pair_yb", "pair_rg"):
        winner = "YB" if game.pair_yb.start_number < game.pair_rg.start_number else "RG"
        card = page.locator(f"#table-{game.table_number}")
        card.locator(f"input[type=radio][value={winner}]").check()
        card.locator("form.result-form button[type=submit]").click()
        page.wait_for_load_state("networkidle")
        expect(page.locator(f"#table-{game.table_number}.has-result")).to_have_count(1)


def _play_round(page: Page, slug: str, number: int) -> None:
    """From the round page of a draft: publish, print, start, results, close."""
    round_ = Round.objects.get(tournament__slug=slug, number=number)
    page.click("#publish-round")
    page.wait_for_load_state("networkidle")
    # The print page is one tap away, and back again.
    _follow(page, ".round-actions a[href$='/print/']", re.compile(rf"/rounds/{number}/print/$"))
    expect(page.locator("a.button", has_text="Parringsliste")).to_be_visible()
    _follow(
        page, f"a[href='/organise/{slug}/rounds/{number}/']", f"**/organise/{slug}/rounds/{number}/"
    )
    page.click("#start-round")
    page.wait_for_load_state("networkidle")
    expect(page.locator("#close-round")).to_be_visible()
    _better_seed_wins(page, round_)
    page.click("#close-round")
    page.wait_for_load_state("networkidle")
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED


def test_an_organiser_runs_a_whole_event_by_links(page, live_server):
    UserFactory(username="arrangoer")
    page.set_default_timeout(15_000)
    confirmations: list[str] = []
    page.on("dialog", lambda dialog: (confirmations.append(dialog.message), dialog.accept()))
    login(page, live_server, "arrangoer")
    # No event yet: login lands on "my tournaments", which offers a new one.
    expect(page).to_have_url(f"{live_server.url}/organise/")
    _follow(page, "a[href='/organise/new/']", "**/organise/new/")
    page.fill("input[name=name]", "DM i Partners Rejse")
    page.fill("input[name=date]", "2026-11-28")
    page.fill("input[name=venue]", "Odense")
    page.fill("input[name=swiss_rounds]", "3")
    page.select_option("select[name=knockout_size]", "4")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_url(re.compile(r"/organise/[-\w]+/$"))
    slug = Tournament.objects.get(name="DM i Partners Rejse").slug
    expect(page.locator("#now-heading")).to_have_text("Kom i gang")
    # A new event is not public until the organiser publishes it from the dashboard.
    expect(page.locator("#publish-step")).to_contain_text("Ikke offentlig")
    page.click("#publish-event")
    page.wait_for_load_state("networkidle")
    expect(page.locator("#publish-step")).to_contain_text("Offentlig")
    assert Tournament.objects.get(slug=slug).published

    # Pairs: the dashboard's first step leads to the import, which leads to the list.
    _follow(page, f".now a[href='/organise/{slug}/pairs/import/']", f"**/{slug}/pairs/import/")
    page.fill("textarea[name=csv_text]", PAIRS_CSV)
    page.click("#import-form button[type=submit]")
    page.wait_for_url(f"**/organise/{slug}/pairs/")
    assert page.locator("tr.pair-row").count() == 8
    page.click("#check-in-all")
    page.wait_for_load_state("networkidle")
    assert page.locator("tr.status-checked_in").count() == 8

    # Three Monrad rounds, each paired from the dashboard ("Overblik").
    for number in (1, 2, 3):
        _follow(page, f"nav.subnav a[href='/organise/{slug}/']", f"**/organise/{slug}/")
        page.click("#pair-round-form button[type=submit]")
        page.wait_for_url(f"**/organise/{slug}/rounds/{number}/")
        expect(page.locator("li.table-card")).to_have_count(4)
        _play_round(page, slug, number)
        _follow(page, f"nav.subnav a[href='/organise/{slug}/']", f"**/organise/{slug}/")
        expect(page.locator("#now-results")).to_contain_text("Alle borde har resultat (4 af 4)")

    # The public standings, from the organiser's menu: the seeds in order.
    _follow(page, f"nav.subnav a[href='/tournaments/{slug}/']", f"**/tournaments/{slug}/")
    _follow(page, f"nav.subnav a[href='/tournaments/{slug}/standings/']", "**/standings/")
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(8)
    points = [int(rows.nth(i).locator("td.num strong").inner_text()) for i in range(8)]
    assert points == sorted(points, reverse=True)
    assert points[3] > points[4]  # the top four are clear of the rest: no tie at the cut
    assert rows.first.locator("td:nth-child(2) a").inner_text() == "Mette Hansen & Jens Nielsen"

    # The knockout: the event bar leads back to the organiser's dashboard.
    _follow(page, f".event-bar a[href='/organise/{slug}/']", f"**/organise/{slug}/")
    # The three Monrad rounds are closed: the bracket is offered, without a browser confirm.
    page.click("#make-bracket")
    page.wait_for_url(f"**/organise/{slug}/rounds/4/")
    assert confirmations == []
    expect(page.locator("li.table-card")).to_have_count(2)
    _play_round(page, slug, 4)
    _follow(page, f"nav.subnav a[href='/organise/{slug}/']", f"**/organise/{slug}/")
    page.click("form[action$='/knockout/advance/'] button[type=submit]")
    page.wait_for_url(f"**/organise/{slug}/rounds/5/")
    expect(page.locator("li.table-card")).to_have_count(1)
    _play_round(page, slug, 5)
    _follow(page, f"nav.subnav a[href='/organise/{slug}/']", f"**/organise/{slug}/")
    page.click("form[action$='/knockout/advance/'] button[type=submit]")
    # The decided final leads the organiser to the champions and the podium.
    page.wait_for_url(f"**/tournaments/{slug}/final/")
    expect(page.locator(".messages .success")).to_be_visible()
    final = Game.objects.get(round__tournament__slug=slug, round__number=5)
    champion = final.pair_yb if final.winner == "YB" else final.pair_rg
    runner_up = final.pair_rg if final.winner == "YB" else final.pair_yb
    assert champion.start_number == 1  # the best seed won every game
    expect(page.locator("#champion-heading")).to_have_text("Vindere")
    expect(page.locator(".champion__pair")).to_contain_text(champion.player_1.name)
    steps = page.locator("ol.podium li")
    expect(steps.first).to_contain_text(champion.player_1.name)
    expect(steps.nth(1)).to_contain_text(runner_up.player_1.name)
    expect(page.locator("table.final-standings tbody tr")).to_have_count(8)
    expect(page.locator("a[href$='/print/final.pdf']")).to_be_visible()

    # The final standings, from the final page's menu.
    _follow(page, f"a[href='/tournaments/{slug}/standings/']", "**/standings/")
    expect(page.locator("table.standings tbody tr")).to_have_count(8)
    assert page.locator("html").get_attribute("lang") == "da"
