"""Who does something: the types a view hands to services for the person asking.

``Actor`` is ``request.user`` as Django and DRF hand it over: a signed-in
``User`` or the ``AnonymousUser``. Services take it as ``actor`` and ask the
permission checks (``tournament.permissions``) before they write; the checks
refuse an anonymous visitor. ``AuthenticatedHttpRequest`` is the request of
a view behind ``login_required``, whose user is always signed in.
"""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest

Actor: TypeAlias = User | AnonymousUser


class AuthenticatedHttpRequest(HttpRequest):
    """A request whose user is signed in (a view behind ``login_required``)."""

    user: User
