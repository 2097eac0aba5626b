"""The season in a real browser: a pair signs up online, the organiser approves it,
the pair plays in the qualifier, the season ranking follows, the final is made."""

from __future__ import annotations

import datetime
import re

from django.utils import timezone

from season.services.series import series_create, series_event_add
from signup.models import SignUp
from signup.services.emails import email_message
from tests.e2e.conftest import login
from tests.factories import UserFactory
from tournament.models import Pair, Tournament
from tournament.services.registration import pair_register, tournament_create

REGISTERED = [
    ("Mette Hansen", "Jens Nielsen"),
    ("Anne Larsen", "Søren Poulsen"),
    ("Kirsten Pedersen", "Lars Andersen"),
]


def _season(organiser):
    qualifier = tournament_create(
        actor=organiser,
        name="Kvalifikation Vest",
        date=timezone.localdate(),
        swiss_rounds=1,
        signup_closes_at=timezone.now() + datetime.timedelta(days=2),
        signup_capacity=4,
        signup_approval=True,
        published=True,
    )
    for player_1, player_2 in REGISTERED:
        pair_register(
            tournament=qualifier,
            actor=organiser,
            player_1=player_1,
            player_2=player_2,
            check_in=True,
        )
    series = series_create(actor=organiser, name="Vestsæsonen", qualifiers_per_event=2)
    series_event_add(series=series, actor=organiser, tournament=qualifier)
    return qualifier, series


def test_sign_up_approve_play_rank_and_make_the_final(page, live_server, transactional_db):
    organiser = UserFactory(username="e2e-saeson")
    qualifier, series = _season(organiser)
    browser = page.context.browser
    page.on("dialog", lambda dialog: dialog.accept())

    # A pair signs up on its phone, in Danish, without an account.
    phone = browser.new_context(
        locale="da-DK", timezone_id="Europe/Copenhagen", viewport={"width": 390, "height": 844}
    )
    player = phone.new_page()
    player.goto(f"{live_server.url}/tournaments/{qualifier.slug}/signup/")
    player.fill("input[name=player_1]", "Camilla Christiansen")
    player.fill("input[name=player_2]", "Martin Poulsen")
    player.fill("input[name=pair_name]", "Roskilde Raketter")
    player.fill("input[name=email]", "camilla@example.dk")
    player.check("input[name=consent]")
    player.click("#signup-form button[type=submit]")
    player.wait_for_url(re.compile(r"/signup/[^/]+/$"))
    assert "Afventer godkendelse" in player.locator("#signup-status").inner_text()
    private_link = player.url
    # The pair confirms publication by the link in its first email: only then
    # do public pages outside the event name it.
    body = email_message(email=SignUp.objects.get(pair_name="Roskilde Raketter").emails.get())[1]
    link = re.search(r"https?://\S+/signup/\S+/consent/", body).group(0)
    player.goto(live_server.url + link[link.index("/signup/") :])
    with player.expect_navigation():
        player.click("#consent-yes")
    assert "Bekræftet pr. e-mail" in player.locator("#consent-status").inner_text()

    # Before any result the season ranking does not know the pair.
    ranking_url = f"{live_server.url}/seasons/{series.slug}/ranking/"
    player.goto(ranking_url)
    assert "Roskilde Raketter" not in player.content()

    # The organiser approves the sign-up: it becomes a pair of the qualifier.
    login(page, live_server, "e2e-saeson")
    page.goto(f"{live_server.url}/organise/{qualifier.slug}/signups/")
    assert "camilla@example.dk" in page.content()
    with page.expect_navigation():
        page.click("button.approve")
    assert "er godkendt" in page.locator(".messages").inner_text()
    page.click("nav.subnav >> text=Par")
    page.wait_for_url(re.compile(rf"/organise/{qualifier.slug}/pairs/$"))
    pairs = page.locator("table.pairs").inner_text()
    assert "Roskilde Raketter (Camilla Christiansen & Martin Poulsen)" in pairs
    start_number = Pair.objects.get(tournament=qualifier, name="Roskilde Raketter").start_number
    # On the day the pair arrives and is checked in at the desk.
    with page.expect_navigation():
        page.click("#check-in-all")
    player.goto(private_link)
    assert "Bekræftet" in player.locator("#signup-status").inner_text()

    # Round 1 is paired, published, played (the new pair wins) and closed.
    page.goto(f"{live_server.url}/organise/{qualifier.slug}/")
    page.click("#pair-round-form button[type=submit]")
    page.wait_for_url(re.compile(rf"/organise/{qualifier.slug}/rounds/1/$"))
    for button in ("#publish-round", "#start-round"):
        with page.expect_navigation():
            page.click(button)
    for table in (1, 2):
        card = page.locator(f"#table-{table}")
        # The card's first paragraph: "Gul/Blå: … #n", then "Rød/Grøn: … #m".
        red_green = card.locator("p").first.inner_text().split("\n")[1]
        winner = "RG" if red_green.endswith(f"#{start_number}") else "YB"
        card.locator(f"input[type=radio][value={winner}]").check()
        with page.expect_navigation():
            card.locator("form.result-form button[type=submit]").click()
    with page.expect_navigation():
        page.click("#close-round")

    # The public season ranking now holds the pair, qualified.
    player.goto(ranking_url)
    row = player.locator("table.season-ranking tbody tr", has_text="Roskilde Raketter")
    assert row.count() == 1 and "Kvalificeret" in row.inner_text()

    # The organiser makes the final in one step, seeded by the ranking.
    page.goto(f"{live_server.url}/organise/seasons/{series.slug}/final/")
    page.fill("input[name=name]", "Vestfinalen")
    page.fill("input[name=date]", "2026-12-12")
    page.click("#final-form button[type=submit]")
    page.wait_for_url(re.compile(r"/organise/[-\w]+/pairs/$"))
    final = Tournament.objects.get(name="Vestfinalen")
    seeds = dict(Pair.objects.filter(tournament=final).values_list("name", "seed"))
    assert "Roskilde Raketter" in seeds and sorted(seeds.values()) == [1, 2]
    assert "Roskilde Raketter" in page.content()
    phone.close()
