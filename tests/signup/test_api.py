"""The sign-up API: public state and sign-up, the private link, the organiser's writes."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from signup.models import SignUp
from signup.services.links import signup_token
from tests.factories import TournamentFactory, UserFactory, organiser_of
from tests.signup.conftest import sign_up

pytestmark = pytest.mark.django_db

BODY = {
    "player_1": "Louise Johansen",
    "player_2": "Morten Møller",
    "email": "louise@example.dk",
    "consent": True,
    "client_id": "api-1",
}


def test_public_state_and_sign_up_without_any_email_in_the_answers(open_event):
    client = APIClient()
    state = client.get(f"/api/tournaments/{open_event.slug}/signup/").json()
    assert state["open"] and state["capacity"] == 2 and state["free"] == 2
    created = client.post(f"/api/tournaments/{open_event.slug}/signup/", BODY, format="json")
    assert created.status_code == 201
    body = created.json()
    assert body["status"] == "confirmed" and body["start_number"] == 1
    assert "/signup/" in body["link"] and "email" not in body
    token = body["link"].rstrip("/").rsplit("/", 1)[-1]
    own = client.get(f"/api/signup/{token}/").json()
    assert own["display_name"] == "Louise Johansen & Morten Møller" and "email" not in own
    state = client.get(f"/api/tournaments/{open_event.slug}/signup/").json()
    assert state["pairs"][0]["display_name"] == "Louise Johansen & Morten Møller"
    assert "louise@example.dk" not in str(state)
    # The same body again: the same sign-up, not a second one.
    again = client.post(f"/api/tournaments/{open_event.slug}/signup/", BODY, format="json")
    assert again.status_code == 201 and SignUp.objects.count() == 1


def test_refusals_are_bilingual_and_change_nothing(open_event):
    client = APIClient()
    response = client.post(
        f"/api/tournaments/{open_event.slug}/signup/", {**BODY, "consent": False}, format="json"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert (
        error["code"] == "signup_consent_required" and error["message_da"] and error["message_en"]
    )
    response = client.post(f"/api/tournaments/{open_event.slug}/signup/", {"x": 1}, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid"
    assert not SignUp.objects.exists()


def test_withdraw_through_the_link_moves_the_waitlist(open_event):
    first, _second, waiting = sign_up(open_event), sign_up(open_event), sign_up(open_event)
    response = APIClient().post(f"/api/signup/{signup_token(signup=first)}/withdraw/")
    assert response.status_code == 200 and response.json()["status"] == "withdrawn"
    waiting.refresh_from_db()
    assert waiting.status == SignUp.Status.CONFIRMED
    forged = APIClient().post("/api/signup/1-nonce.forged/withdraw/")
    assert forged.status_code == 404 and forged.json()["error"]["code"] == "signup_link_invalid"


def test_only_the_tournaments_organisers_see_emails_and_decide(open_event):
    open_event.signup_approval = True
    open_event.save()
    signup = sign_up(open_event, email="kun-arrangoer@example.dk")
    organiser = APIClient()
    organiser.force_login(open_event.organiser)
    listing = organiser.get(f"/api/tournaments/{open_event.slug}/signups/")
    assert listing.json()[0]["email"] == "kun-arrangoer@example.dk"
    for who in (APIClient(), _logged_in(UserFactory()), _logged_in(organiser_of_other())):
        response = who.get(f"/api/tournaments/{open_event.slug}/signups/")
        assert response.status_code == 403
        assert "kun-arrangoer" not in response.content.decode()
        assert who.post(f"/api/signups/{signup.pk}/approve/").status_code == 403
    approved = organiser.post(f"/api/signups/{signup.pk}/approve/")
    assert approved.status_code == 200 and approved.json()["status"] == "confirmed"
    again = organiser.post(f"/api/signups/{signup.pk}/approve/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "signup_not_pending"


def _logged_in(user):
    client = APIClient()
    client.force_login(user)
    return client


def organiser_of_other():
    return organiser_of(TournamentFactory(), "anden-arrangoer")
