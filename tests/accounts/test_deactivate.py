"""Deactivating an account: no login, and every session of it ends at once."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory, judge_of, organiser_of
from tournament.models import TournamentRole

pytestmark = pytest.mark.django_db


def _logged_in(username: str, password: str = "pw-for-tests") -> Client:
    client = Client()
    assert client.login(username=username, password=password)
    return client


def test_a_user_deactivates_their_own_account():
    UserFactory(username="selv")
    phone, laptop = _logged_in("selv"), _logged_in("selv")
    wrong = laptop.post(reverse("accounts:deactivate"), {"password": "not mine"})
    assert wrong.status_code == 302 and authenticate(username="selv", password="pw-for-tests")
    response = laptop.post(reverse("accounts:deactivate"), {"password": "pw-for-tests"})
    assert response.status_code == 302
    assert authenticate(username="selv", password="pw-for-tests") is None
    assert phone.get(reverse("accounts:home")).status_code == 302  # signed out
    assert not Client().login(username="selv", password="pw-for-tests")


def test_staff_deactivates_an_account_and_its_sessions_end():
    event = TournamentFactory(slug="dm-deact")
    judge = judge_of(event, "dommer")
    staff = UserFactory(username="forbund", is_staff=True)
    judges_phone = _logged_in("dommer")
    assert judges_phone.get(reverse("judging:dashboard", args=[event.slug])).status_code == 200
    url = reverse("accounts:staff_account_action", args=[judge.pk, "deactivate"])
    assert _logged_in("forbund").post(url).status_code == 302
    judge.refresh_from_db()
    assert judge.is_active is False
    dashboard = judges_phone.get(reverse("judging:dashboard", args=[event.slug]))
    assert dashboard.status_code == 302 and dashboard["Location"].startswith("/login/")
    # The API's session authentication refuses it as well.
    assert judges_phone.get(reverse("accounts:home")).status_code == 302
    reopen = reverse("accounts:staff_account_action", args=[judge.pk, "reactivate"])
    _logged_in("forbund").post(reopen)
    judge.refresh_from_db()
    assert judge.is_active is True
    assert staff.is_staff


def test_only_staff_deactivates_another_account():
    event = TournamentFactory(slug="dm-deact")
    organiser = organiser_of(event, "arrangoer")
    victim = UserFactory(username="offer")
    client = Client()
    client.force_login(organiser)
    url = reverse("accounts:staff_account_action", args=[victim.pk, "deactivate"])
    assert client.post(url).status_code == 403
    assert client.get(reverse("accounts:staff_accounts")).status_code == 403
    victim.refresh_from_db()
    assert victim.is_active is True


def test_the_last_staff_account_stays_active():
    staff = UserFactory(username="eneste", is_staff=True)
    client = _logged_in("eneste")
    client.post(reverse("accounts:deactivate"), {"password": "pw-for-tests"})
    staff.refresh_from_db()
    assert staff.is_active is True


def test_an_organiser_removes_a_persons_role_from_their_own_event():
    event = TournamentFactory(slug="dm-deact")
    organiser = organiser_of(event, "arrangoer")
    judge = judge_of(event, "dommer")
    role = TournamentRole.objects.get(user=judge)
    judges_phone = _logged_in("dommer")
    client = Client()
    client.force_login(organiser)
    client.post(reverse("tournament:organiser_role_revoke", args=[event.slug, role.pk]))
    assert judges_phone.get(reverse("judging:dashboard", args=[event.slug])).status_code == 403
    judge.refresh_from_db()
    assert judge.is_active  # the account itself is theirs
