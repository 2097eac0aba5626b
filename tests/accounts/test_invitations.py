"""Invitations: an organiser's one-time link -> an account with its own password -> the role."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Invitation
from accounts.tokens import secret_hash
from tests.factories import TournamentFactory, UserFactory, judge_of, organiser_of
from tournament.models import AuditEntry, TournamentRole

pytestmark = pytest.mark.django_db

PASSWORD = "Syv-splitterne 2026"
LINK = re.compile(r"http://[^\s\"'<>]+/invite/([A-Za-z0-9_-]+)/")


@pytest.fixture
def event():
    return TournamentFactory(slug="dm-invite", published=True)


@pytest.fixture
def organiser(event):
    return organiser_of(event, "inviter")


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _invite(client: Client, event, role: str = "judge", email: str = "") -> tuple[str, str]:
    response = client.post(
        reverse("accounts:organiser_invitation_new", args=[event.slug]),
        {"role": role, "email": email},
    )
    assert response.status_code == 200, response.content
    assert response["Cache-Control"] == "no-store"
    match = LINK.search(response.content.decode())
    assert match
    return match.group(0), match.group(1)


def _accept_new(link: str, username: str = "newjudge") -> tuple[Client, object]:
    client = Client()
    response = client.post(
        link,
        {"username": username, "password1": PASSWORD, "password2": PASSWORD, "email": ""},
    )
    return client, response


def test_invite_set_password_role_and_the_judge_sees_only_that_event(event, organiser, settings):
    settings.SITE_URL = "http://dm.example.dk"
    other = TournamentFactory(slug="dm-other", published=True)
    link, token = _invite(_signed_in(organiser), event)
    assert link.startswith("http://dm.example.dk/invite/")
    stored = Invitation.objects.get()
    assert stored.token_hash == secret_hash(token)
    assert not Invitation.objects.filter(token_hash__contains=token).exists()

    client = Client()
    page = client.get(link)
    assert page.status_code == 200 and event.name in page.content.decode()
    client, response = _accept_new(link)
    assert response.status_code == 302
    judge = get_user_model().objects.get(username="newjudge")
    assert judge.check_password(PASSWORD)
    assert TournamentRole.objects.filter(tournament=event, user=judge, role="judge").exists()
    assert AuditEntry.objects.filter(tournament=event, action="role_grant_invited").exists()
    # Signed in by the answer; the role works: this event's judge dashboard, not another's.
    assert client.get(reverse("judging:dashboard", args=[event.slug])).status_code == 200
    assert client.get(reverse("judging:dashboard", args=[other.slug])).status_code in (403, 404)
    desk = reverse("tournament:organiser_dashboard", args=[event.slug])
    assert client.get(desk).status_code == 403


def test_a_co_organiser_is_invited_and_can_organise(event, organiser):
    link, _token = _invite(_signed_in(organiser), event, role="organiser")
    client, response = _accept_new(link, "coorg")
    assert response.status_code == 302
    desk = reverse("tournament:organiser_dashboard", args=[event.slug])
    assert client.get(desk).status_code == 200


def test_the_link_is_emailed_through_djangos_email_framework(event, organiser):
    link, _token = _invite(_signed_in(organiser), event, email="dommer@example.dk")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["dommer@example.dk"]
    assert link in message.body
    assert event.name in message.subject


def test_a_used_link_is_refused(event, organiser):
    link, _token = _invite(_signed_in(organiser), event)
    _accept_new(link)
    second, response = _accept_new(link, "someone-else")
    assert response.status_code == 410
    assert not get_user_model().objects.filter(username="someone-else").exists()
    assert second.get(link).status_code == 410


def test_a_withdrawn_link_is_refused(event, organiser):
    link, _token = _invite(_signed_in(organiser), event)
    invitation = Invitation.objects.get()
    response = _signed_in(organiser).post(
        reverse("accounts:organiser_invitation_withdraw", args=[event.slug, invitation.pk])
    )
    assert response.status_code == 302
    _client, response = _accept_new(link)
    assert response.status_code == 404
    assert not get_user_model().objects.filter(username="newjudge").exists()


def test_an_expired_link_is_refused(event, organiser):
    link, _token = _invite(_signed_in(organiser), event)
    Invitation.objects.update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    _client, response = _accept_new(link)
    assert response.status_code == 410
    assert "expired" in response.content.decode()
    assert not get_user_model().objects.filter(username="newjudge").exists()


def test_a_forged_link_is_refused():
    _client, response = _accept_new("/invite/not-a-real-token/")
    assert response.status_code == 404


def test_a_signed_in_user_accepts_with_their_account(event, organiser):
    link, _token = _invite(_signed_in(organiser), event)
    existing = UserFactory(username="has-account")
    client = _signed_in(existing)
    assert "has-account" in client.get(link).content.decode()
    assert client.post(link).status_code == 302
    assert TournamentRole.objects.filter(tournament=event, user=existing, role="judge").exists()


def test_a_weak_password_or_a_taken_name_makes_nothing_and_keeps_the_link(event, organiser):
    link, _token = _invite(_signed_in(organiser), event)
    client = Client()
    weak = client.post(link, {"username": "x", "password1": "1234", "password2": "1234"})
    assert weak.status_code == 400
    taken = client.post(link, {"username": "inviter", "password1": PASSWORD, "password2": PASSWORD})
    assert taken.status_code == 400
    assert Invitation.objects.get().state == Invitation.State.PENDING
    _client, response = _accept_new(link)
    assert response.status_code == 302


def test_only_an_organiser_of_that_event_may_invite_or_withdraw(event, organiser):
    other = TournamentFactory(slug="dm-other")
    outsiders = [organiser_of(other, "other-org"), judge_of(event, "own-judge")]
    _invite(_signed_in(organiser), event)
    invitation = Invitation.objects.get()
    for outsider in outsiders:
        client = _signed_in(outsider)
        response = client.post(
            reverse("accounts:organiser_invitation_new", args=[event.slug]), {"role": "organiser"}
        )
        assert response.status_code == 403
        response = client.post(
            reverse("accounts:organiser_invitation_withdraw", args=[event.slug, invitation.pk])
        )
        assert response.status_code == 403
    assert Invitation.objects.count() == 1
    assert Invitation.objects.get().state == Invitation.State.PENDING
    staff = UserFactory(username="federation", is_staff=True)
    _invite(_signed_in(staff), event)
    assert Invitation.objects.count() == 2


def test_the_dashboard_lists_waiting_invitations_without_their_links(event, organiser):
    client = _signed_in(organiser)
    _link, token = _invite(client, event, email="dommer@example.dk")
    page = client.get(reverse("tournament:organiser_dashboard", args=[event.slug])).content.decode()
    assert "dommer@example.dk" in page
    assert token not in page


def test_the_email_speaks_the_events_language_with_its_dates(event, organiser):
    english_organiser = _signed_in(organiser)
    english_organiser.get(reverse("language_switch", args=["en"]))
    _invite(english_organiser, event, email="dommer@example.dk")
    body = mail.outbox[0].body
    assert "dommer" in body and "Linket udløber" in body
    # "26. november 2026 14:30": Django's Danish format, the month in Danish.
    assert re.search(
        r"\d{1,2}\. (januar|februar|marts|april|maj|juni|juli|august|"
        r"september|oktober|november|december) \d{4} \d\d:\d\d",
        body,
    )
