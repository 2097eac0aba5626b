"""The sign-up pages: the public form, a pair's private page, the organiser's list."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from signup.models import SignUp
from signup.services.links import signup_token
from signup.spam import SIGNUP_PER_IP
from tests.factories import UserFactory
from tests.signup.conftest import sign_up

pytestmark = pytest.mark.django_db


def form(**fields):
    return {
        "player_1": "Camilla Christiansen",
        "player_2": "Martin Poulsen",
        "pair_name": "Roskilde Raketter",
        "club": "Roskilde Partners",
        "email": "camilla@example.dk",
        "consent": "on",
        "client_id": "a" * 32,
        "website": "",
        **fields,
    }


def test_the_form_signs_a_pair_up_and_opens_its_private_page(open_event, client):
    page = client.get(reverse("signup:page", args=[open_event.slug]))
    html = page.content.decode()
    assert page.status_code == 200 and 'id="signup-form"' in html
    assert 'name="client_id"' in html and 'class="hp-field"' in html
    response = client.post(reverse("signup:page", args=[open_event.slug]), form(), follow=True)
    signup = SignUp.objects.get(tournament=open_event)
    assert response.redirect_chain[-1][0] == reverse(
        "signup:own", args=[signup_token(signup=signup)]
    )
    html = response.content.decode()
    assert "Roskilde Raketter" in html and 'id="withdraw-form"' in html
    assert "camilla@example.dk" not in html  # the private page does not show the address
    assert response["Cache-Control"].startswith("max-age=0")
    assert '<meta name="robots" content="noindex">' in html


def test_a_filled_honeypot_is_refused_and_nothing_is_stored(open_event, client):
    response = client.post(
        reverse("signup:page", args=[open_event.slug]), form(website="http://spam.example")
    )
    assert response.status_code == 400
    assert "sidste felt" in response.content.decode()
    assert not SignUp.objects.exists()


def test_a_bad_form_keeps_what_was_typed(open_event, client):
    response = client.post(reverse("signup:page", args=[open_event.slug]), form(consent=""))
    html = response.content.decode()
    assert response.status_code == 400
    assert 'value="Camilla Christiansen"' in html and 'value="camilla@example.dk"' in html
    assert not SignUp.objects.exists()


def test_too_many_sign_ups_from_one_client_are_refused(open_event, client):
    url = reverse("signup:page", args=[open_event.slug])
    for n in range(SIGNUP_PER_IP.limit):
        client.post(url, form(player_1=f"A{n}", player_2=f"B{n}", client_id=f"c{n}"))
    response = client.post(url, form(player_1="Late", player_2="Comer", client_id="late"))
    assert response.status_code == 429
    assert "For mange tilmeldinger" in response.content.decode()
    assert not SignUp.objects.filter(player_1="Late").exists()


def test_a_closed_sign_up_says_so_and_shows_no_form(open_event, client):
    open_event.signup_closes_at = None
    open_event.save()
    html = client.get(reverse("signup:page", args=[open_event.slug])).content.decode()
    assert "Ingen online tilmelding" in html and 'id="signup-form"' not in html
    response = client.post(reverse("signup:page", args=[open_event.slug]), form())
    assert response.status_code == 409 and not SignUp.objects.exists()


def test_withdrawing_on_the_private_page(open_event, client):
    signup = sign_up(open_event)
    url = reverse("signup:own", args=[signup_token(signup=signup)])
    response = client.post(url, follow=True)
    signup.refresh_from_db()
    assert signup.status == SignUp.Status.WITHDRAWN
    assert "afmelding er registreret" in response.content.decode()
    forged = client.get(reverse("signup:own", args=["1-abc.forged"]))
    assert forged.status_code == 404 and "ikke gyldigt" in forged.content.decode()


def test_the_organiser_sees_emails_and_decides_others_get_403(open_event):
    open_event.signup_approval = True
    open_event.save()
    signup = sign_up(open_event, email="hemmelig@example.dk")
    organiser = Client()
    organiser.force_login(open_event.organiser)
    html = organiser.get(reverse("signup:organiser_list", args=[open_event.slug])).content.decode()
    assert "hemmelig@example.dk" in html
    csv = organiser.get(reverse("signup:organiser_csv", args=[open_event.slug]))
    assert "hemmelig@example.dk" in csv.content.decode("utf-8-sig")
    stranger = Client()
    stranger.force_login(UserFactory())
    for name in ("signup:organiser_list", "signup:organiser_csv"):
        response = stranger.get(reverse(name, args=[open_event.slug]))
        assert response.status_code == 403 and b"hemmelig@example.dk" not in response.content
    response = stranger.post(reverse("signup:organiser_approve", args=[open_event.slug, signup.pk]))
    assert response.status_code == 403
    organiser.post(reverse("signup:organiser_approve", args=[open_event.slug, signup.pk]))
    signup.refresh_from_db()
    assert signup.status == SignUp.Status.CONFIRMED


def test_the_organiser_turns_down_with_a_note(open_event):
    open_event.signup_approval = True
    open_event.save()
    signup = sign_up(open_event)
    organiser = Client()
    organiser.force_login(open_event.organiser)
    url = reverse("signup:organiser_reject", args=[open_event.slug, signup.pk])
    organiser.post(url, {"note": "Kun medlemmer i år"})
    signup.refresh_from_db()
    assert signup.status == SignUp.Status.REJECTED and signup.note == "Kun medlemmer i år"


def test_csv_cells_that_look_like_formulas_are_written_as_text(open_event):
    sign_up(open_event, pair_name='=HYPERLINK("http://x")')
    organiser = Client()
    organiser.force_login(open_event.organiser)
    text = organiser.get(reverse("signup:organiser_csv", args=[open_event.slug])).content.decode(
        "utf-8-sig"
    )
    assert "\"'=HYPERLINK" in text and ";=HYPERLINK" not in text
