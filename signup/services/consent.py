"""Consent to publish, from the person: the emailed confirmation link, withdrawal, the organiser.

The sign-up form's box only agrees to the terms and starts this: a
confirmation email (``SignUpEmail.Kind.CONSENT``) carries a link
(``consent_links``) that expires and works once (the nonce changes when it
is used, or when the email is sent again). Opened, it shows what is
published; confirmed, the people the address speaks for
(``selectors_consent.consent_coverage``) consent, recorded in their history
with the source "signup:<id>". Withdrawal is as easy: the same link, the
sign-up's private page, the organiser. Withdrawing the sign-up takes back
the consent that came only from it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, Conflict, PermissionDenied
from core.users import Actor
from people.errors import PersonRefused
from people.models import ConsentRecord, Person
from people.services_consent import person_consent_give, person_consent_withdraw
from signup.models import SignUp, SignUpEmail
from signup.selectors_consent import (
    consent_coverage,
    consent_events_organised,
    may_record_consent,
    signup_persons,
)
from signup.services.consent_links import signup_from_consent_token
from signup.services.emails import email_queue
from signup.services.links import new_nonce, signup_from_token
from tournament.models import Tournament
from tournament.services.audit import audit_record

NOT_YOURS = _(
    "Only an organiser of an event this person plays in (or staff) may see or record their consent."
)


def consent_source(*, signup: SignUp) -> str:
    """How a grant born of this sign-up is named in a person's history."""
    return f"signup:{signup.pk}"


def consent_request_queue(*, signup: SignUp) -> None:
    """A fresh confirmation link, mailed (the caller holds the sign-up's row)."""
    signup.consent_nonce = new_nonce()
    signup.save(update_fields=["consent_nonce"])
    email_queue(signup=signup, kind=SignUpEmail.Kind.CONSENT)


def _require_open(signup: SignUp) -> None:
    if signup.status in (SignUp.Status.WITHDRAWN, SignUp.Status.REJECTED) or (
        signup.anonymised_at is not None
    ):
        raise Conflict(
            "consent_signup_closed",
            _("This sign-up was withdrawn or turned down: there is nothing to publish."),
        )


@transaction.atomic
def signup_consent_answer(*, token: str, confirm: bool) -> SignUp:
    """The email's owner answers through the confirmation link: yes or no.

    Yes: the people the address speaks for consent (source "signup:<id>").
    No: every person named on the sign-up withdraws (a withdrawal errs
    towards privacy). The link is used up either way.
    """
    signup = signup_from_consent_token(token=token, for_update=True)
    if confirm:
        _require_open(signup)
    signup.consent_nonce = new_nonce()
    source = consent_source(signup=signup)
    if confirm:
        covered = consent_coverage(signup=signup).covered
        if not covered:
            raise Conflict(
                "consent_nobody_covered",
                _(
                    "The people on this sign-up are known from other events: this address "
                    "cannot publish them. Ask the organiser to record their consent."
                ),
            )
        person_consent_give(persons=covered, via=ConsentRecord.Via.EMAIL, source=source)
        signup.consent_confirmed_at = timezone.now()
    else:
        person_consent_withdraw(
            persons=signup_persons(signup=signup), via=ConsentRecord.Via.EMAIL, source=source
        )
        signup.consent_confirmed_at = None
    signup.save(update_fields=["consent_nonce", "consent_confirmed_at"])
    audit_record(
        tournament=signup.tournament,
        actor=None,
        action="signup_consent_confirm" if confirm else "signup_consent_decline",
        target=signup,
    )
    return signup


@transaction.atomic
def signup_consent_withdraw_by_link(*, token: str) -> SignUp:
    """Withdrawal on the sign-up's private page: every person named on it."""
    signup = signup_from_token(token=token, for_update=True)
    person_consent_withdraw(
        persons=signup_persons(signup=signup),
        via=ConsentRecord.Via.SIGNUP_PAGE,
        source=consent_source(signup=signup),
    )
    signup.consent_confirmed_at = None
    signup.save(update_fields=["consent_confirmed_at"])
    audit_record(
        tournament=signup.tournament, actor=None, action="signup_consent_withdraw", target=signup
    )
    return signup


@transaction.atomic
def signup_consent_request(*, token: str) -> SignUp:
    """The private page asks for a new confirmation email (the old link stops working)."""
    signup = signup_from_token(token=token, for_update=True)
    _require_open(signup)
    if not signup.email:
        raise Conflict(
            "signup_no_email",
            _("This sign-up has no email address any more."),
        )
    consent_request_queue(signup=signup)
    return signup


def signup_consent_release(*, signup: SignUp) -> None:
    """The sign-up is withdrawn: the consent that came only from it goes too."""
    person_consent_withdraw(
        persons=signup_persons(signup=signup),
        via=ConsentRecord.Via.SOURCE_ENDED,
        source=consent_source(signup=signup),
    )


@transaction.atomic
def person_consent_record(*, person: Person, actor: Actor, given: bool, reason: str) -> Person:
    """An organiser records a person's consent or its withdrawal, with the reason
    (e.g. "signed paper form 12 March"): staff, or an organiser of an event the
    person plays in or signed up for."""
    if not may_record_consent(actor=actor, person=person):
        raise PermissionDenied(NOT_YOURS)
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise ApplicationError(
            "consent_reason_required",
            _("Say how the person gave or withdrew their consent (e.g. a signed form)."),
            extra={"field": "reason"},
        )
    events = consent_events_organised(actor=actor, person=person)
    source = f"tournament:{events[0].slug}" if events else "staff"
    try:
        if given:
            (person,) = person_consent_give(
                persons=[person],
                via=ConsentRecord.Via.ORGANISER,
                source=source,
                actor=actor,
                reason=reason,
            )
        else:
            (person,) = person_consent_withdraw(
                persons=[person],
                via=ConsentRecord.Via.ORGANISER,
                source=source,
                actor=actor,
                reason=reason,
            )
    except PersonRefused as error:
        raise Conflict(error.code, error.message_en, error.message_da) from None
    _audit_in(events, actor=actor, person=person, given=given)
    return person


def _audit_in(events: list[Tournament], *, actor: Actor, person: Person, given: bool) -> None:
    for tournament in events[:1]:
        audit_record(
            tournament=tournament,
            actor=actor,
            action="person_consent_give" if given else "person_consent_withdraw",
            target=person,
        )
