"""A home per role: where login lands, the list of my events, the organiser's
dashboard at a glance, and the links between the event's pages."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from competition.services.pairing import round_pair, round_publish, round_start
from games.models import GameClock
from judging.models import Alert, JudgeCall
from tests.competition.helpers import event_with_pairs, play
from tests.factories import TournamentFactory, UserFactory, judge_of, organiser_of
from tournament.page_version import forget_stamps

pytestmark = pytest.mark.django_db


def _login(username: str) -> Client:
    """Log in through the login form, as a person would, and follow where it lands."""
    client = Client()
    client.post(reverse("login"), {"username": username, "password": "pw-for-tests"})
    return client


def _landing(client: Client) -> str:
    response = client.get(reverse("tournament:role_home"))
    assert response.status_code == 302
    return response["Location"]


def _hrefs(response) -> set[str]:  # type: ignore[no-untyped-def]
    return set(re.findall(r'href="([^"#]*)', response.content.decode()))


def test_login_lands_an_organiser_on_the_event_dashboard():
    event = TournamentFactory()
    organiser_of(event, "desk")
    response = Client().post(
        reverse("login"), {"username": "desk", "password": "pw-for-tests"}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse(
        "tournament:organiser_dashboard", args=[event.slug]
    )


def test_login_lands_a_judge_on_the_judge_dashboard_of_the_event():
    event = TournamentFactory()
    judge_of(event, "floor")
    assert _landing(_login("floor")) == reverse("judging:dashboard", args=[event.slug])


def test_of_several_events_todays_decides_and_otherwise_the_user_chooses():
    today = timezone.localdate()
    past = TournamentFactory(date=today - datetime.timedelta(days=30))
    todays = TournamentFactory(date=today)
    judge_of(past, "both")
    judge_of(todays, "both")
    assert _landing(_login("both")) == reverse("judging:dashboard", args=[todays.slug])

    other_today = TournamentFactory(date=today)
    organiser_of(other_today, "both")
    assert _landing(_login("both")) == reverse("tournament:organiser_index")


def test_my_events_lists_what_i_judge_and_what_i_organise_with_their_dashboards():
    judged, organised = TournamentFactory(name="Judged Cup"), TournamentFactory(name="Own Cup")
    judge_of(judged, "mixed")
    organiser_of(organised, "mixed")
    response = _login("mixed").get(reverse("tournament:organiser_index"))
    html = response.content.decode()
    assert "Judged Cup" in html and "Own Cup" in html
    hrefs = _hrefs(response)
    assert reverse("judging:dashboard", args=[judged.slug]) in hrefs
    assert reverse("tournament:organiser_dashboard", args=[organised.slug]) in hrefs
    assert reverse("tournament:organiser_dashboard", args=[judged.slug]) not in hrefs
    assert reverse("tournament:organiser_new") in hrefs


def test_a_user_without_a_role_is_told_how_to_get_one():
    UserFactory(username="newcomer")
    client = _login("newcomer")
    assert _landing(client) == reverse("tournament:organiser_index")
    html = client.get(reverse("tournament:organiser_index")).content.decode()
    assert "newcomer" in html and "Ny turnering" in html


def test_an_anonymous_visitor_is_sent_to_the_login_form():
    response = Client().get(reverse("tournament:role_home"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_dashboard_shows_the_current_round_with_its_results_clocks_and_links():
    event, organiser, _pairs = event_with_pairs(8)
    round_ = round_pair(tournament=event, actor=organiser)
    round_publish(round=round_, actor=organiser)
    round_start(round=round_, actor=organiser)
    games = list(round_.games.order_by("table_number"))
    GameClock.objects.filter(game=games[0]).update(paused_at=timezone.now())
    JudgeCall.objects.create(tournament=event, game=games[1], client_id="call-1")
    now = timezone.now()
    Alert.objects.create(
        tournament=event, game=games[2], kind="alert", due_at=now, raised_at=now, mark_minute=50
    )
    client = Client()
    client.force_login(organiser)

    response = client.get(reverse("tournament:organiser_dashboard", args=[event.slug]))
    html = response.content.decode()
    assert "<strong>4</strong> af 4 borde mangler resultat." in html
    assert "Ure: 4 spiller, 1 på pause, 0 med tiden udløbet." in html
    assert "1 åbne dommertilkald, 1 alarmer" in html
    hrefs = _hrefs(response)
    for url in (
        reverse("tournament:organiser_round", args=[event.slug, 1]),
        reverse("printing:round_print", args=[event.slug, 1]),
        reverse("tournament:pairings", args=[event.slug, 1]),
        reverse("games:hall", args=[event.slug]),
        reverse("judging:dashboard", args=[event.slug]),
    ):
        assert url in hrefs, url

    play(round_, organiser)
    html = client.get(reverse("tournament:organiser_dashboard", args=[event.slug])).content
    assert "Alle borde har resultat (4 af 4)." in html.decode()


def test_a_new_event_dashboard_says_how_to_begin():
    event = TournamentFactory()
    client = Client()
    client.force_login(organiser_of(event))
    response = client.get(reverse("tournament:organiser_dashboard", args=[event.slug]))
    assert "Kom i gang" in response.content.decode()
    assert reverse("tournament:organiser_pairs_import", args=[event.slug]) in _hrefs(response)


def test_a_public_round_links_each_table_to_its_live_view_once_play_has_begun():
    event, organiser, _pairs = event_with_pairs(4)
    round_ = round_pair(tournament=event, actor=organiser)
    round_publish(round=round_, actor=organiser)
    url = reverse("tournament:pairings", args=[event.slug, 1])
    live = reverse("games:live", args=[event.slug, 1, 1])
    assert live not in _hrefs(Client().get(url))  # published, not started: nothing to follow
    round_start(round=round_, actor=organiser)
    forget_stamps()  # a cached public page lives until the version memo (1 s) expires
    assert live in _hrefs(Client().get(url))
    found = Client().get(url, {"q": round_.games.get(table_number=1).pair_yb.player_1.name})
    assert "Følg bordet live" in found.content.decode()


def test_the_live_view_leads_on_to_the_round_and_standings_and_a_judge_to_the_replay():
    event, organiser, _pairs = event_with_pairs(4)
    round_ = round_pair(tournament=event, actor=organiser)
    round_publish(round=round_, actor=organiser)
    round_start(round=round_, actor=organiser)
    game = round_.games.get(table_number=1)
    url = reverse("games:live", args=[event.slug, 1, 1])
    review = reverse("judging:review", args=[event.slug, game.pk])
    public = _hrefs(Client().get(url))
    assert reverse("tournament:pairings", args=[event.slug, 1]) in public
    assert reverse("tournament:standings", args=[event.slug]) in public
    assert review not in public
    judge = Client()
    judge.force_login(judge_of(event))
    assert review in _hrefs(judge.get(url))


def test_the_event_bar_offers_each_role_its_dashboards():
    event = TournamentFactory()
    url = reverse("tournament:standings", args=[event.slug])
    organiser_link = reverse("tournament:organiser_dashboard", args=[event.slug])
    judge_link = reverse("judging:dashboard", args=[event.slug])
    anonymous = _hrefs(Client().get(url))
    assert organiser_link not in anonymous and judge_link not in anonymous
    judge = Client()
    judge.force_login(judge_of(event))
    seen = _hrefs(judge.get(url))
    assert judge_link in seen and organiser_link not in seen
    organiser = Client()
    organiser.force_login(organiser_of(event))
    assert {organiser_link, judge_link} <= _hrefs(organiser.get(url))


def test_the_random_draw_is_shown_only_in_the_round_details():
    event, organiser, _pairs = event_with_pairs(4)
    round_ = round_pair(tournament=event, actor=organiser, method="random", random_seed=4242)
    client = Client()
    client.force_login(organiser)
    html = client.get(reverse("tournament:organiser_round", args=[event.slug, 1])).content.decode()
    assert html.count("4242") == 1
    details = html.split('<details class="round-details">', 1)[1].split("</details>", 1)[0]
    assert "4242" in details and "lodtrækning" in details
    assert round_.random_seed == 4242
