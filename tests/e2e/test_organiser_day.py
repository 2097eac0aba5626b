"""The organiser's dashboard on a phone (390×844): the publish step, and the
knockout cut offered only when due, or as an early cut chosen in words."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from competition.services.pairing import round_close
from tests.competition.helpers import pair_and_play
from tests.e2e.conftest import login
from tests.factories import PairFactory, TournamentFactory, organiser_of
from tournament.models import Pair, Round

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/org23")
PHONE = {"width": 390, "height": 844}


def _fits_the_phone(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide"


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_publish_then_cut_early_in_words_on_a_phone(page, live_server):
    tournament = TournamentFactory(
        name="Fyn Open", slug="fyn-open", knockout_size=4, swiss_rounds=3, published=False
    )
    organiser = organiser_of(tournament, "arrangoer")
    for k in range(8):
        PairFactory(tournament=tournament, start_number=k + 1, status=Pair.Status.CHECKED_IN)
    page.set_viewport_size(PHONE)
    login(page, live_server, "arrangoer")
    page.goto(f"{live_server.url}/organise/{tournament.slug}/")

    # Not public, said at the top of the first screen, with its one button.
    step = page.locator("#publish-step")
    expect(step).to_contain_text("Ikke offentlig")
    publish = page.locator("#publish-event")
    expect(publish).to_have_text("Offentliggør")
    box = publish.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]
    # No bracket before any round: the panel says where the Swiss rounds stand.
    expect(page.locator("#make-bracket")).to_have_count(0)
    expect(page.locator("#early-cut")).to_have_count(0)
    expect(page.locator("#cut-not-yet")).to_contain_text("0 af 3 spillet og lukket")
    _fits_the_phone(page)
    _shot(page, "dashboard-unpublished")

    publish.click()
    page.wait_for_load_state("networkidle")
    expect(page.locator("#publish-step")).to_contain_text("Offentlig")
    expect(page.locator("#unpublish-event")).to_be_visible()
    tournament.refresh_from_db()
    assert tournament.published
    _shot(page, "dashboard-published")

    # One Monrad round played and closed: the early cut is offered, in words.
    round_close(round=pair_and_play(tournament, organiser), actor=organiser)
    page.reload()
    expect(page.locator("#make-bracket")).to_have_count(0)
    expect(page.locator("#cut-not-yet")).to_contain_text("1 af 3 spillet og lukket")
    page.locator("#early-cut summary").click()
    choice = page.locator("#early-cut-choice")
    expect(page.locator("#early-cut")).to_contain_text(
        "Skær nu efter runde 1 af 3: top 4 efter stillingen nu går videre, "
        "og de sidste 2 Monrad-runder spilles ikke."
    )
    _fits_the_phone(page)
    page.locator("#early-cut").scroll_into_view_if_needed()
    _shot(page, "dashboard-early-cut")
    # "Skær nu" without ticking the choice does nothing.
    page.click("#early-cut-submit")
    assert page.url.endswith(f"/organise/{tournament.slug}/")
    assert not tournament.rounds.filter(kind=Round.Kind.KNOCKOUT).exists()
    choice.check()
    page.click("#early-cut-submit")
    page.wait_for_url(f"**/organise/{tournament.slug}/rounds/2/")
    knockout = tournament.rounds.get(number=2)
    assert knockout.kind == Round.Kind.KNOCKOUT
    expect(page.locator("li.table-card")).to_have_count(2)
    _shot(page, "early-cut-made")


def test_the_print_language_and_a_rehearsal_clock_on_a_phone(page, live_server):
    tournament = TournamentFactory(
        slug="oevelse", knockout_size=0, swiss_rounds=1, clock_speed=60.0
    )
    organiser = organiser_of(tournament, "arrangoer")
    for k in range(4):
        PairFactory(tournament=tournament, start_number=k + 1, status=Pair.Status.CHECKED_IN)
    round_ = pair_and_play(tournament, organiser)
    page.set_viewport_size(PHONE)
    login(page, live_server, "arrangoer")
    page.goto(f"{live_server.url}/organise/{tournament.slug}/")
    expect(page.locator("#rehearsal-clock")).to_contain_text("Øvelsesur: 60× hurtigere")
    page.goto(f"{live_server.url}/tournaments/{tournament.slug}/rounds/{round_.number}/print/")
    languages = page.locator("#print-language")
    expect(languages.locator("[aria-current]")).to_have_text("Dansk")
    languages.locator("a", has_text="English").click()
    page.wait_for_url("**/print/?lang=en")
    expect(languages.locator("[aria-current]")).to_have_text("English")
    expect(page.locator("a[href$='pairings.pdf?lang=en']")).to_have_count(1)
    _fits_the_phone(page)
    _shot(page, "print-language")
    from games.services.tokens import game_token

    game = round_.games.order_by("table_number").first()
    page.goto(f"{live_server.url}/t/{game_token(game=game)}/")
    expect(page.locator("#rehearsal-clock")).to_have_text("Øvelse 60×")
    _fits_the_phone(page)
    page.screenshot(path=str(SHOTS / "table-rehearsal.png"))
