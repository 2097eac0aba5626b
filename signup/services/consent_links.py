"""The confirmation link of a sign-up's consent to publish.

A token is Django's ``TimestampSigner`` over "<id>-<nonce>" (its own salt,
HMAC under ``SECRET_KEY`` or a key of ``SECRET_KEY_FALLBACKS``): it expires
after ``CONSENT_LINK_MAX_AGE``, and works only while the sign-up keeps that
nonce (``SignUp.consent_nonce``, changed when the link is used or sent
again). The path is ``/signup/<token>/consent/``: the token stands where the
private link's does, so the log masking of private sign-up links covers it.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext_lazy as _

from core.errors import NotFound
from signup.models import SignUp

CONSENT_LINK_MAX_AGE = datetime.timedelta(days=30)
_SIGNER_SALT = "signup.consent-link"
_SEPARATOR = "."


def _signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=_SIGNER_SALT, sep=_SEPARATOR)


def consent_token(*, signup: SignUp) -> str:
    return _signer().sign(f"{signup.pk}-{signup.consent_nonce}")


def consent_link(*, signup: SignUp) -> str:
    """The absolute confirmation link (for the email)."""
    path = reverse("signup:consent", kwargs={"consent_token": consent_token(signup=signup)})
    return f"{settings.SITE_URL}{path}"


def _invalid_link() -> NotFound:
    return NotFound(
        "consent_link_invalid",
        _(
            "This confirmation link is not valid: mistyped, used already, replaced by a "
            "newer one or older than 30 days. Your sign-up's page can send a new one."
        ),
    )


def signup_from_consent_token(*, token: str, for_update: bool = False) -> SignUp:
    """The sign-up a confirmation link belongs to; ``NotFound`` for anything else
    (forged, expired, used, replaced)."""
    try:
        value = _signer().unsign(token[:200], max_age=CONSENT_LINK_MAX_AGE)
    except signing.BadSignature:  # SignatureExpired is one
        raise _invalid_link() from None
    signup_id, _dash, nonce = value.partition("-")
    if not signup_id.isdigit() or not nonce:
        raise _invalid_link()
    rows = SignUp.objects.select_related("tournament")
    if for_update:
        rows = rows.select_for_update(of=("self",))
    signup = rows.filter(pk=int(signup_id)).first()
    if signup is None or not constant_time_compare(signup.consent_nonce, nonce):
        raise _invalid_link()
    return signup
