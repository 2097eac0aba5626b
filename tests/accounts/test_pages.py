"""The account pages as their users find them: links, roles, the staff's list."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory, judge_of

pytestmark = pytest.mark.django_db


def test_every_page_header_links_my_account_and_it_lists_my_events():
    event = TournamentFactory(name="Kvalifikation Nord 2026")
    judge = judge_of(event, "dommer")
    client = Client()
    client.force_login(judge)
    front = client.get(reverse("tournament:home")).content.decode()
    assert reverse("accounts:home") in front
    page = client.get(reverse("accounts:home")).content.decode()
    assert "Kvalifikation Nord 2026" in page
    assert reverse("accounts:password_change") in page
    assert reverse("accounts:staff_accounts") not in page


def test_the_staff_find_every_account_from_my_account():
    staff = UserFactory(username="forbund", is_staff=True)
    UserFactory(username="someone", is_active=False)
    client = Client()
    client.force_login(staff)
    page = client.get(reverse("accounts:home")).content.decode()
    assert reverse("accounts:staff_accounts") in page
    listing = client.get(reverse("accounts:staff_accounts")).content.decode()
    assert "someone" in listing and "deaktiveret" in listing


def test_the_dashboard_offers_the_invitation_form():
    event = TournamentFactory()
    organiser = UserFactory(username="arr", is_staff=True)
    client = Client()
    client.force_login(organiser)
    page = client.get(reverse("tournament:organiser_dashboard", args=[event.slug]))
    assert reverse("accounts:organiser_invitation_new", args=[event.slug]) in page.content.decode()
