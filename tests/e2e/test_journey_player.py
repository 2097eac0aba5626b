"""A player on a phone, without login: the event page, my table, the live table, the standings.

The phone's browser is set to English, and the event is Danish: the pages
are Danish. Every step is a link or a button on the page before it, and no
page is wider than the phone.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.db.models import Q
from playwright.sync_api import Page, expect

from competition.services.pairing import round_close, round_pair, round_publish, round_start
from games.engine import selfplay_game
from games.services.move_log import move_submit
from tests.competition.helpers import play
from tests.factories import UserFactory
from tournament.models import Tournament
from tournament.services.registration import pair_check_in, pair_register, tournament_create

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = [
    ("Mette Hansen", "Jens Nielsen"),
    ("Anne Larsen", "Søren Poulsen"),
    ("Kirsten Pedersen", "Lars Andersen"),
    ("Hanne Jensen", "Peter Christensen"),
]


def _event() -> tuple[Tournament, int]:
    """A Danish event: round 1 played, round 2 in progress with moves logged.

    Returns the event and the table where Mette Hansen plays in round 2.
    """
    organiser = UserFactory(username="desk")
    event = tournament_create(
        actor=organiser,
        name="Fyn Open",
        date=datetime.date(2026, 11, 28),
        venue="Odense",
        swiss_rounds=3,
        published=True,
    )
    for seed, (one, two) in enumerate(PLAYERS, start=1):
        pair = pair_register(
            tournament=event, actor=organiser, player_1=one, player_2=two, seed=seed
        )
        pair_check_in(pair=pair, actor=organiser)
    round_close(
        round=play(round_pair(tournament=event, actor=organiser), organiser), actor=organiser
    )
    second = round_pair(tournament=event, actor=organiser)
    round_publish(round=second, actor=organiser)
    round_start(round=second, actor=organiser)
    mette = Q(pair_yb__player_1__name="Mette Hansen") | Q(pair_rg__player_1__name="Mette Hansen")
    game = second.games.get(mette)
    for seq, text in enumerate(selfplay_game(5, first_dealer=game.first_dealer)["moves"][:6]):
        move_submit(game=game, text=text, client_id=f"phone-{seq:04d}", expected_seq=seq)
    return event, game.table_number


def _fits_the_phone(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{page.url} is {width}px wide on a 390px phone"


def test_a_player_finds_the_table_follows_it_live_and_reads_the_standings(browser, live_server):
    event, table = _event()
    phone = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale="en-GB",
        timezone_id="Europe/Copenhagen",
    )
    page = phone.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server.url}/")
        assert page.locator("html").get_attribute("lang") == "da"

        # The front page lists the event; its page offers "find my table".
        page.locator("a.card-link", has_text="Fyn Open").click()
        page.wait_for_url(f"**/tournaments/{event.slug}/")
        _fits_the_phone(page)
        page.locator("a.button", has_text="Find mit bord").click()
        page.wait_for_url(f"**/tournaments/{event.slug}/rounds/2/")

        # My table by my name; from there, the table live.
        page.fill("#find-q", "mette")
        page.locator("form.find-table button[type=submit]").click()
        page.wait_for_url(re.compile(r"\?q=mette$"))
        found = page.locator("li.found-table")
        expect(found).to_have_count(1)
        expect(found.locator(".table-no")).to_have_text(f"Bord {table}")
        _fits_the_phone(page)
        found.locator("a", has_text="Følg bordet live").click()
        page.wait_for_url(f"**/tournaments/{event.slug}/rounds/2/tables/{table}/")
        expect(page.locator("#board circle").first).to_be_visible()
        expect(page.locator("#seq")).to_have_text("6")
        expect(page.locator(".game-clock__time")).to_be_visible()
        _fits_the_phone(page)

        # Back to every table of the round, and on to the standings.
        expect(page.locator(".page-links a", has_text="Alle borde i runde 2")).to_be_visible()
        page.locator(".page-links a", has_text="Stilling").click()
        page.wait_for_url(f"**/tournaments/{event.slug}/standings/")
        rows = page.locator("table.standings tbody tr")
        expect(rows).to_have_count(4)
        expect(rows.first.locator("td.num strong")).to_have_text("2")
        _fits_the_phone(page)
        assert page.locator("html").get_attribute("lang") == "da"
    finally:
        phone.close()
