"""Online sign-up for a singles event (DUO): one player signs up, not a pair."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from core.errors import ApplicationError
from signup.models import SignUp
from tests.factories import TournamentFactory, organiser_of
from tests.signup.conftest import sign_up
from tournament.models import Pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def singles_event(db):
    tournament = TournamentFactory(
        ruleset="duo", signup_closes_at=timezone.now() + datetime.timedelta(days=7)
    )
    tournament.organiser = organiser_of(tournament)
    return tournament


def test_a_player_signs_up_alone_and_becomes_an_entrant_of_one(singles_event):
    signup = sign_up(singles_event, player_1="Anne Holm", player_2="")
    assert signup.status == SignUp.Status.CONFIRMED
    assert signup.display_name == "Anne Holm" and signup.person_2 is None
    entrant = Pair.objects.get(pk=signup.pair_id)
    assert entrant.player_1.name == "Anne Holm" and entrant.player_2 is None
    assert entrant.player_1.person_id == signup.person_1_id


def test_a_partner_is_refused_in_singles_and_a_player_cannot_sign_up_twice(singles_event):
    with pytest.raises(ApplicationError) as err:
        sign_up(singles_event, player_1="Anne Holm", player_2="Bo Dahl")
    assert err.value.code == "singles_one_player"
    assert err.value.message_en != err.value.message_da
    sign_up(singles_event, player_1="Anne Holm", player_2="")
    with pytest.raises(ApplicationError) as err:
        sign_up(singles_event, player_1="anne holm", player_2="")
    assert err.value.code == "signup_duplicate"
    assert SignUp.objects.filter(tournament=singles_event).count() == 1


def test_the_form_asks_for_one_player_in_player_words(singles_event, client):
    url = reverse("signup:page", args=[singles_event.slug])
    html = client.get(url).content.decode()
    assert 'name="player_1"' in html and 'name="player_2"' not in html
    assert 'name="pair_name"' not in html
    client.cookies.load({"django_language": "en"})
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    response = client.post(
        url,
        {
            "player_1": "Camilla Christiansen",
            "club": "Roskilde Partners",
            "email": "camilla@example.dk",
            "consent": "on",
            "client_id": "s" * 32,
            "website": "",
        },
    )
    assert response.status_code == 302
    signup = SignUp.objects.get(tournament=singles_event)
    assert signup.player_1 == "Camilla Christiansen" and signup.player_2 == ""
    assert signup.pair.player_2 is None


def test_the_api_signs_up_one_player(singles_event):
    client = APIClient()
    created = client.post(
        f"/api/tournaments/{singles_event.slug}/signup/",
        {"player_1": "Louise Johansen", "email": "l@example.dk", "consent": True,
         "client_id": "api-s"},
        format="json",
    )  # fmt: skip
    assert created.status_code == 201, created.content
    state = client.get(f"/api/tournaments/{singles_event.slug}/signup/").json()
    assert state["pairs"][0]["display_name"] == "Louise Johansen"
