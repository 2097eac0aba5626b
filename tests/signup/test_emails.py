"""Emails through Django's email framework: queued with the change, sent once."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail
from django.utils import timezone, translation

from signup.models import SignUpEmail
from signup.services.emails import MAX_ATTEMPTS, email_send, emails_send_unsent
from signup.services.links import signup_token
from signup.services.privacy import signup_contacts_purge
from tests.signup.conftest import sign_up

pytestmark = pytest.mark.django_db


def test_the_confirmation_is_written_in_the_sign_ups_language_with_the_private_link(
    open_event, settings
):
    settings.SITE_URL = "https://dm.example"
    with translation.override("da"):
        signup = sign_up(open_event, player_1="Anne Larsen", player_2="Søren Poulsen")
    email = signup.emails.get()
    assert email_send(email_id=email.pk) is True
    (message,) = mail.outbox
    assert message.to == [signup.email]
    assert open_event.name in message.subject and "bekræftet" in message.subject
    assert "Anne Larsen og Søren Poulsen" in message.body
    assert f"https://dm.example/signup/{signup_token(signup=signup)}/" in message.body
    email.refresh_from_db()
    assert email.sent_at is not None and email.attempts == 1


def test_waitlist_email_in_english_gives_the_position(open_event):
    sign_up(open_event)
    sign_up(open_event)
    sign_up(open_event)
    with translation.override("en"):
        signup = sign_up(open_event)
    email_send(email_id=signup.emails.get().pk)
    (message,) = mail.outbox
    assert "waitlist" in message.subject
    assert "as number 2" in message.body


def test_an_email_is_sent_at_most_once(open_event):
    email = sign_up(open_event).emails.get()
    assert email_send(email_id=email.pk) is True
    assert email_send(email_id=email.pk) is True  # already sent: nothing more
    assert emails_send_unsent(older_than=datetime.timedelta(0)) == 0
    assert len(mail.outbox) == 1


def test_a_failing_mail_server_keeps_the_email_for_the_sweep(open_event, settings):
    email = sign_up(open_event).emails.get()
    settings.EMAIL_BACKEND = "tests.signup.test_emails.BrokenBackend"
    with pytest.raises(ConnectionRefusedError):
        email_send(email_id=email.pk)
    email.refresh_from_db()
    assert email.sent_at is None and email.claimed_at is None and "refused" in email.error
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert emails_send_unsent(older_than=datetime.timedelta(0)) == 1
    email.refresh_from_db()
    assert email.sent_at is not None and email.attempts == 2 and email.error == ""


def test_a_claim_of_a_sender_that_died_is_taken_over_after_a_while(open_event):
    email = sign_up(open_event).emails.get()
    SignUpEmail.objects.filter(pk=email.pk).update(claimed_at=timezone.now(), attempts=1)
    assert emails_send_unsent(older_than=datetime.timedelta(0)) == 0
    stale = timezone.now() - datetime.timedelta(minutes=10)
    SignUpEmail.objects.filter(pk=email.pk).update(claimed_at=stale)
    assert emails_send_unsent(older_than=datetime.timedelta(0)) == 1


def test_no_email_goes_to_a_deleted_address(open_event):
    signup = sign_up(open_event)
    signup.email = ""
    signup.save()
    assert email_send(email_id=signup.emails.get().pk) is False
    assert mail.outbox == []
    assert signup.emails.get().attempts == MAX_ATTEMPTS


def test_contact_emails_are_deleted_after_the_retention_period(open_event, settings):
    settings.SIGNUP_EMAIL_RETENTION_DAYS = 30
    signup = sign_up(open_event)
    day = open_event.date
    assert signup_contacts_purge(today=day + datetime.timedelta(days=30)) == 0
    assert signup_contacts_purge(today=day + datetime.timedelta(days=31)) == 1
    signup.refresh_from_db()
    assert signup.email == "" and signup.anonymised_at is not None


class BrokenBackend:
    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError("connection refused by the mail server")
