"""Who does something: the types a view hands to services for the person asking.

``Actor`` is ``request.user`` as Django and DRF hand it over: a signed-in
``User`` or the ``AnonymousUser``. Services take it as ``actor`` and ask the
permission checks (``tournament.permissions``) before they write; the checks
refuse an anonymous visitor. A write that records who did it stores
``signed_in(actor)`` (None for the system: a clock running out, a waitlist
moving on). ``AuthenticatedHttpRequest`` is the request of
a view behind ``login_required``, whose user is always signed in.
"""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from core.errors import PermissionDenied

__all__ = ["Actor", "AuthenticatedHttpRequest", "User", "signed_in", "signed_in_user"]

Actor: TypeAlias = User | AnonymousUser


def signed_in(actor: Actor | None) -> User | None:
    """The user to record as who did something: None for the system or an anonymous visitor."""
    return actor if isinstance(actor, User) else None


def signed_in_user(actor: Actor) -> User:
    """``actor`` as the signed-in user a write needs (the creator of an event becomes its
    organiser); an anonymous visitor may not."""
    if isinstance(actor, User):
        return actor
    raise PermissionDenied(_("Log in first."))


class AuthenticatedHttpRequest(HttpRequest):
    """A request whose user is signed in (a view behind ``login_required``)."""

    user: User
