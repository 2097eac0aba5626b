"""Celery tasks of the signup app: thin wrappers that take ids and call services."""

from __future__ import annotations

from celery import shared_task

from signup.models import SignUp
from signup.services.emails import email_send, emails_send_unsent
from signup.services.privacy import signup_contacts_purge
from signup.services.signups import signup_waitlist_advance
from tournament.models import Tournament

MAX_RETRIES = 5


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True, ignore_result=True)
def signup_email_send(self, email_id: int) -> None:  # type: ignore[no-untyped-def]
    """Send one queued email; safe to run twice (the row is claimed), retried with back-off."""
    try:
        email_send(email_id=email_id)
    except Exception as exc:
        if self.request.retries >= self.max_retries:
            return  # the sweep tries again later; the organiser sees the error
        raise self.retry(exc=exc, countdown=10 * 2**self.request.retries) from exc


@shared_task(ignore_result=True)
def signup_sweep() -> dict[str, int]:
    """Every minute (beat): unsent emails, waitlists with free places, old contact emails.

    Free places appear without a sign-up being withdrawn (the organiser adds
    places or drops a pair): the waitlist moves up here within a minute.
    """
    moved = 0
    waiting = Tournament.objects.filter(
        signups__status=SignUp.Status.WAITLISTED, rounds__isnull=True
    ).distinct()
    for tournament in waiting:
        moved += len(signup_waitlist_advance(tournament=tournament))
    return {
        "emails": emails_send_unsent(),
        "moved_up": moved,
        "contacts_purged": signup_contacts_purge(),
    }
