"""The private link of a sign-up: see its status and withdraw.

The token is Django's ``Signer`` over "<id>-<nonce>" (HMAC-SHA256 under
``SECRET_KEY``, or a key of ``SECRET_KEY_FALLBACKS`` after a rotation). The
database keeps only the nonce, so the server can show or send the link again
at any time, and a new nonce (``signup_link_renew``) revokes the old link.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext_lazy as _

from core.errors import NotFound
from signup.models import SignUp

_SIGNER_SALT = "signup.private-link"
_SEPARATOR = "."


def _signer() -> signing.Signer:
    return signing.Signer(salt=_SIGNER_SALT, sep=_SEPARATOR)


def new_nonce() -> str:
    return secrets.token_urlsafe(12)


def signup_token(*, signup: SignUp) -> str:
    return _signer().sign(f"{signup.pk}-{signup.link_nonce}")


def signup_link(*, signup: SignUp) -> str:
    """The absolute private link (for emails; pages use the path)."""
    path = reverse("signup:own", kwargs={"signup_token": signup_token(signup=signup)})
    return f"{settings.SITE_URL}{path}"


def _invalid_link() -> NotFound:
    return NotFound(
        "signup_link_invalid",
        _(
            "This sign-up link is not valid (mistyped, or replaced by a newer one). "
            "Use the link in your newest email, or ask the organiser."
        ),
    )


def signup_from_token(*, token: str, for_update: bool = False) -> SignUp:
    """The sign-up a private link belongs to; ``NotFound`` for any other string."""
    try:
        value = _signer().unsign(token[:200])
    except signing.BadSignature:
        raise _invalid_link() from None
    signup_id, _dash, nonce = value.partition("-")
    if not signup_id.isdigit():
        raise _invalid_link()
    rows = SignUp.objects.select_related("tournament", "pair")
    if for_update:
        rows = rows.select_for_update(of=("self",))
    signup = rows.filter(pk=int(signup_id)).first()
    if signup is None or not constant_time_compare(signup.link_nonce, nonce):
        raise _invalid_link()
    return signup
