"""Password change (signed in) and reset by email (Django's views, the site's pages)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import authenticate
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NEW = "Fynske Fløjter 2026"


@pytest.fixture
def user():
    return UserFactory(username="dommer", email="dommer@example.dk", password="old password 1")


def test_change_password_signs_out_the_other_devices(user):
    phone, laptop = Client(), Client()
    assert phone.login(username="dommer", password="old password 1")
    assert laptop.login(username="dommer", password="old password 1")
    response = laptop.post(
        reverse("accounts:password_change"),
        {"old_password": "old password 1", "new_password1": NEW, "new_password2": NEW},
    )
    assert response.status_code == 302
    assert authenticate(username="dommer", password=NEW) is not None
    # The device that changed it stays signed in; the other one is out.
    assert laptop.get(reverse("accounts:home")).status_code == 200
    assert phone.get(reverse("accounts:home")).status_code == 302


def test_change_password_needs_the_old_one_and_a_valid_new_one(user):
    client = Client()
    client.force_login(user)
    wrong = client.post(
        reverse("accounts:password_change"),
        {"old_password": "nope", "new_password1": NEW, "new_password2": NEW},
    )
    demo = client.post(
        reverse("accounts:password_change"),
        {
            "old_password": "old password 1",
            "new_password1": "demo-organiser",
            "new_password2": "demo-organiser",
        },
    )
    assert wrong.status_code == 200 and demo.status_code == 200
    assert "offentliggjorte" in demo.content.decode()
    assert authenticate(username="dommer", password="old password 1") is not None


def test_password_reset_by_email(user, settings):
    settings.SITE_URL = "http://dm.example.dk"
    client = Client()
    assert client.get(reverse("accounts:password_reset")).status_code == 200
    response = client.post(reverse("accounts:password_reset"), {"email": "DOMMER@example.dk"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["dommer@example.dk"]
    link = re.search(r"http://dm\.example\.dk(/account/reset/\S+/)", message.body)
    assert link
    form_page = client.get(link.group(1), follow=True)
    assert form_page.status_code == 200
    set_password_url = form_page.redirect_chain[-1][0]
    assert "set-password" in set_password_url
    done = client.post(set_password_url, {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302
    assert authenticate(username="dommer", password=NEW) is not None
    # Used once: the same link no longer works.
    again = Client().get(link.group(1), follow=True)
    assert "ikke gyldigt" in again.content.decode()


def test_reset_for_an_unknown_address_sends_nothing_and_says_the_same(user):
    response = Client().post(reverse("accounts:password_reset"), {"email": "nobody@example.dk"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_reset_requests_are_limited_per_address(user):
    client = Client()
    for _ in range(3):
        client.post(reverse("accounts:password_reset"), {"email": "dommer@example.dk"})
    response = client.post(reverse("accounts:password_reset"), {"email": "dommer@example.dk"})
    assert response.status_code == 429
    assert len(mail.outbox) == 3


def test_the_reset_page_is_in_both_languages(user):
    client = Client()
    danish = client.get(reverse("accounts:password_reset")).content.decode()
    client.get(reverse("language_switch", args=["en"]))
    english = client.get(reverse("accounts:password_reset")).content.decode()
    assert "Glemt din adgangskode?" in danish
    assert "Forgot your password?" in english


def test_the_login_page_links_to_the_reset():
    page = Client().get(reverse("login")).content.decode()
    assert reverse("accounts:password_reset") in page
