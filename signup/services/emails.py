"""Emails to a sign-up's contact address, through Django's email framework.

``email_queue`` writes a ``SignUpEmail`` row in the caller's transaction and,
once it commits, asks a worker to send it (``signup.tasks``). ``email_send``
claims the row with a conditional UPDATE, so a message is sent at most once
even when a retry and the sweep meet; a failure releases the claim for the
next attempt. The backend is the environment's (``EMAIL_URL``): the console
by default, SMTP in production.
"""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from signup.models import SignUp, SignUpEmail
from signup.selectors import waitlist_position
from signup.services.consent_links import consent_link
from signup.services.links import signup_link

logger = logging.getLogger(__name__)

# A claim older than this belongs to a sender that died; another may take over.
CLAIM_EXPIRES = datetime.timedelta(minutes=5)
MAX_ATTEMPTS = 8


def email_queue(*, signup: SignUp, kind: str) -> SignUpEmail:
    email = SignUpEmail.objects.create(signup=signup, kind=kind)

    def publish() -> None:
        from signup.tasks import signup_email_send

        try:
            signup_email_send.delay(email.pk)
        except Exception:  # the broker is down: the sweep sends it later
            logger.warning("could not queue sign-up email %s", email.pk)

    transaction.on_commit(publish)
    return email


def _claimable(now: datetime.datetime) -> Q:
    return Q(sent_at__isnull=True, attempts__lt=MAX_ATTEMPTS) & (
        Q(claimed_at__isnull=True) | Q(claimed_at__lt=now - CLAIM_EXPIRES)
    )


def _awaits_consent(signup: SignUp, kind: str) -> bool:
    """Whether a status email also asks to confirm publication (not answered yes yet)."""
    return (
        signup.consent_confirmed_at is None
        and bool(signup.consent_nonce)
        and signup.status
        in (SignUp.Status.PENDING, SignUp.Status.CONFIRMED, SignUp.Status.WAITLISTED)
        and kind not in (SignUpEmail.Kind.WITHDRAWN, SignUpEmail.Kind.REJECTED)
    )


def email_message(*, email: SignUpEmail) -> tuple[str, str]:
    """Subject and body, in the language the pair signed up in."""
    signup = email.signup
    tournament = signup.tournament
    with translation.override(signup.language or settings.LANGUAGE_CODE):
        context = {
            "kind": email.kind,
            "signup": signup,
            "tournament": tournament,
            "private_link": signup_link(signup=signup),
            "tournament_link": settings.SITE_URL
            + reverse("tournament:public_home", kwargs={"slug": tournament.slug}),
            "position": waitlist_position(signup=signup),
        }
        if email.kind == SignUpEmail.Kind.CONSENT or _awaits_consent(signup, email.kind):
            context["consent_link"] = consent_link(signup=signup)
        subject = render_to_string("signup/email/subject.txt", context)
        body = render_to_string("signup/email/body.txt", context)
    return " ".join(subject.split()), body.strip() + "\n"


def email_send(*, email_id: int) -> bool:
    """Send one queued email if this call can claim it. True once it is sent.

    Raises the backend's error after releasing the claim (the task retries).
    """
    now = timezone.now()
    claimed = SignUpEmail.objects.filter(_claimable(now), pk=email_id).update(
        claimed_at=now, attempts=F("attempts") + 1
    )
    if not claimed:
        return SignUpEmail.objects.filter(pk=email_id, sent_at__isnull=False).exists()
    email = SignUpEmail.objects.select_related("signup__tournament").get(pk=email_id)
    if not email.signup.email:
        # The address was deleted (privacy) before the message went out.
        SignUpEmail.objects.filter(pk=email_id).update(error="no address", attempts=MAX_ATTEMPTS)
        return False
    try:
        subject, body = email_message(email=email)
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [email.signup.email])
    except Exception as error:
        SignUpEmail.objects.filter(pk=email_id).update(claimed_at=None, error=str(error)[:300])
        raise
    SignUpEmail.objects.filter(pk=email_id).update(sent_at=timezone.now(), error="")
    return True


def emails_send_unsent(*, older_than: datetime.timedelta = datetime.timedelta(minutes=1)) -> int:
    """The sweep: send what a lost task left behind. Returns the number sent."""
    now = timezone.now()
    ids = list(
        SignUpEmail.objects.filter(_claimable(now), created_at__lt=now - older_than)
        .order_by("pk")
        .values_list("pk", flat=True)[:200]
    )
    sent = 0
    for email_id in ids:
        try:
            sent += email_send(email_id=email_id)
        except Exception:
            logger.warning("sign-up email %s could not be sent; will retry", email_id)
    return sent
