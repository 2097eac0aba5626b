"""The organiser's dashboard on the day: the publish step, the knockout cut only
when it is due (or an early cut chosen in words), the rehearsal clock; and the
same rules through the API."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from competition.services.pairing import round_close
from tests.competition.helpers import pair_and_play
from tests.factories import PairFactory, TournamentFactory, UserFactory, organiser_of
from tournament.models import Pair, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    event = TournamentFactory(slug="dm-day", knockout_size=4, swiss_rounds=3, published=False)
    for k in range(8):
        PairFactory(tournament=event, start_number=k + 1, status=Pair.Status.CHECKED_IN)
    return event


@pytest.fixture
def organiser(tournament):
    return organiser_of(tournament, "org")


@pytest.fixture
def org_client(organiser):
    client = Client()
    client.force_login(organiser)
    return client


def _url(name, tournament):
    return reverse(f"tournament:{name}", args=[tournament.slug])


def _dashboard(client, tournament):
    return client.get(_url("organiser_dashboard", tournament)).content.decode()


# --- publish -------------------------------------------------------------------------


def test_a_new_event_made_on_the_page_is_unpublished_and_the_dashboard_says_so(client):
    user = UserFactory(username="newbie")
    client.force_login(user)
    response = client.post(
        reverse("tournament:organiser_new"),
        {"name": "Fyn Open", "date": "2027-03-06", "ruleset": "dm2023", "time_limit_minutes": 60,
         "alert_minutes": 50, "swiss_rounds": 5, "knockout_size": 0, "points_win": 2,
         "points_loss": 0, "points_bye": 2, "adjudication": "distance",
         "tiebreak_1": "buchholz", "published": "on"},
    )  # fmt: skip
    tournament = Tournament.objects.get(name="Fyn Open")
    assert response.status_code == 302
    assert tournament.published is False  # publishing is its own step, not a form field
    html = _dashboard(client, tournament)
    assert 'id="publish-step"' in html
    assert "Ikke offentlig" in html
    assert 'id="publish-event"' in html
    assert Client().get(_url("public_home", tournament)).status_code == 404


def test_publish_then_take_off_the_public_pages(org_client, tournament):
    response = org_client.post(_url("organiser_publish", tournament), {"action": "publish"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.published is True
    assert Client().get(_url("public_home", tournament)).status_code == 200
    html = _dashboard(org_client, tournament)
    assert "Turneringen er offentlig: alle kan se dens sider." in html
    assert 'id="unpublish-event"' in html and 'id="publish-event"' not in html

    org_client.post(_url("organiser_publish", tournament), {"action": "unpublish"})
    tournament.refresh_from_db()
    assert tournament.published is False
    assert Client().get(_url("public_home", tournament)).status_code == 404


def test_a_publish_post_without_a_choice_changes_nothing(org_client, tournament):
    url = _url("organiser_publish", tournament)
    response = org_client.post(url, {"action": "maybe"}, follow=True)
    assert "Vælg at offentliggøre turneringen" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.published is False


def test_a_judge_cannot_publish(tournament):
    from tests.factories import judge_of

    client = Client()
    client.force_login(judge_of(tournament))
    response = client.post(_url("organiser_publish", tournament), {"action": "publish"})
    assert response.status_code in (403, 404)
    tournament.refresh_from_db()
    assert tournament.published is False


def test_the_api_creates_unpublished_and_publishes_by_the_setting():
    user = UserFactory()
    api = APIClient()
    api.force_authenticate(user)
    made = api.post("/api/tournaments/", {"name": "API Open", "date": "2027-04-01"}, format="json")
    assert made.status_code == 201
    assert made.json()["published"] is False
    slug = made.json()["slug"]
    assert APIClient().get(f"/api/tournaments/{slug}/").status_code == 404
    assert api.patch(f"/api/tournaments/{slug}/", {"published": True}, format="json").json()[
        "published"
    ]
    assert APIClient().get(f"/api/tournaments/{slug}/").status_code == 200


# --- the knockout cut ----------------------------------------------------------------


def test_a_new_event_offers_no_bracket_and_a_post_is_refused(org_client, tournament):
    html = _dashboard(org_client, tournament)
    assert 'id="make-bracket"' not in html
    assert "Træet (top 4) laves, når Monrad-runderne er færdige: 0 af 3 spillet og lukket." in html
    assert 'id="early-cut"' not in html  # nothing to cut on: everyone is on 0
    assert "data-confirm" not in html.split('id="knockout-panel"')[1].split("</section>")[0]
    response = org_client.post(
        _url("organiser_knockout_create", tournament), {"source": "standings"}, follow=True
    )
    assert "Der er ikke spillet nogen Monrad-runde endnu" in response.content.decode()
    assert not tournament.rounds.filter(kind=Round.Kind.KNOCKOUT).exists()


def test_after_one_round_the_early_cut_is_offered_in_words(org_client, tournament, organiser):
    round_close(round=pair_and_play(tournament, organiser), actor=organiser)
    html = _dashboard(org_client, tournament)
    assert 'id="make-bracket"' not in html
    assert 'id="early-cut"' in html
    assert (
        "Skær nu efter runde 1 af 3: top 4 efter stillingen nu går videre, "
        "og de sidste 2 Monrad-runder spilles ikke."
    ) in html
    # The button alone (no early choice) is refused with the reason.
    response = org_client.post(
        _url("organiser_knockout_create", tournament), {"source": "standings"}, follow=True
    )
    assert "Monrad-runderne er ikke færdige: 1 af 3 er spillet og lukket." in (
        response.content.decode()
    )
    assert not tournament.rounds.filter(kind=Round.Kind.KNOCKOUT).exists()
    # With the choice ticked, the bracket is made (a tie at the cut goes to its choice page).
    response = org_client.post(
        _url("organiser_knockout_create", tournament),
        {"source": "standings", "early": "True", "cut": "seed"},
    )
    assert response.status_code == 302
    assert tournament.rounds.filter(kind=Round.Kind.KNOCKOUT).exists()


def test_the_knockout_page_carries_the_early_choice_and_the_tie(org_client, tournament, organiser):
    round_close(round=pair_and_play(tournament, organiser), actor=organiser)
    html = org_client.get(_url("organiser_knockout", tournament)).content.decode()
    assert 'id="make-bracket"' not in html
    assert 'name="early"' in html
    assert "Skær nu efter runde 1 af 3" in html


def test_when_the_swiss_rounds_are_closed_the_bracket_is_offered(org_client, tournament, organiser):
    Tournament.objects.filter(pk=tournament.pk).update(swiss_rounds=1)
    round_close(round=pair_and_play(tournament, organiser), actor=organiser)
    html = _dashboard(org_client, tournament)
    assert 'id="make-bracket"' in html
    assert 'id="early-cut"' not in html
    assert "Make the knockout bracket now?" not in html


def test_the_api_refuses_the_cut_before_its_time_and_takes_the_early_choice(tournament, organiser):
    round_close(round=pair_and_play(tournament, organiser), actor=organiser)
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/tournaments/{tournament.slug}/knockout/"
    refused = api.post(url, {"source": "standings"}, format="json")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "knockout_swiss_unfinished"
    assert (error["closed"], error["planned"]) == (1, 3)
    assert error["message_da"].startswith("Monrad-runderne er ikke færdige")
    assert error["message_en"].startswith("The Swiss rounds are not done")
    made = api.post(url, {"source": "standings", "early": True, "cut": "seed"}, format="json")
    assert made.status_code == 201
    assert made.json()["kind"] == "knockout"


# --- the rehearsal clock -------------------------------------------------------------


def _settings(tournament, **changes):
    data = {
        "name": tournament.name, "date": "2026-11-28", "ruleset": "dm2023",
        "time_limit_minutes": 60, "alert_minutes": 50, "swiss_rounds": 3, "knockout_size": 4,
        "points_win": 2, "points_loss": 0, "points_bye": 2, "adjudication": "distance",
        "tiebreak_1": "buchholz", "language": "da",
    }  # fmt: skip
    data.update(changes)
    return data


def test_the_settings_page_sets_a_rehearsal_speed_shown_on_the_dashboard(org_client, tournament):
    page = org_client.get(_url("organiser_settings", tournament)).content.decode()
    assert 'name="clock_speed"' in page and "Urets hastighed" in page
    response = org_client.post(
        _url("organiser_settings", tournament), _settings(tournament, clock_speed="60")
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.clock_speed == 60.0
    html = _dashboard(org_client, tournament)
    assert 'id="rehearsal-clock"' in html
    assert "Øvelsesur: 60× hurtigere end virkelig tid." in html


def test_a_real_time_event_shows_no_rehearsal_mark(org_client, tournament):
    assert 'id="rehearsal-clock"' not in _dashboard(org_client, tournament)


def test_the_settings_page_refuses_a_new_speed_once_a_round_started(
    org_client, tournament, organiser
):
    pair_and_play(tournament, organiser)  # published and started
    response = org_client.post(
        _url("organiser_settings", tournament), _settings(tournament, clock_speed="60")
    )
    assert response.status_code == 200
    assert "urets hastighed kan ikke længere ændres" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.clock_speed == 1.0
    # Saving the settings with the speed unchanged still works.
    unchanged = _settings(tournament, clock_speed="1", venue="Vejle")
    response = org_client.post(_url("organiser_settings", tournament), unchanged)
    assert response.status_code == 302


def test_the_api_refuses_a_new_speed_once_a_round_started(tournament, organiser):
    pair_and_play(tournament, organiser)
    api = APIClient()
    api.force_authenticate(organiser)
    response = api.patch(f"/api/tournaments/{tournament.slug}/", {"clock_speed": 60}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "clock_speed_fixed"
    tournament.refresh_from_db()
    assert tournament.clock_speed == 1.0
