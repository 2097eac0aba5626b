"""Spam protection without third-party services: a rate limit per client and a honeypot.

The limit uses the site's shared-cache counters (core/ratelimit.py), so it
holds across web processes. A club evening signs up several pairs from one
Wi-Fi address, so the limit is generous; a robot posting in a loop is not.
The honeypot is a form field (signup.forms.HONEYPOT).
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from core.ratelimit import Limit, RateLimited, client_ip, ratelimit_hit

SIGNUP_PER_IP = Limit("signup-ip", 20, 60 * 60)


def signup_attempt_allow(*, request: HttpRequest) -> None:
    """Count one sign-up attempt from this client; refuse (429) beyond the limit."""
    if ratelimit_hit(limit=SIGNUP_PER_IP, who=client_ip(request)) > SIGNUP_PER_IP.limit:
        raise RateLimited(
            "signup_rate_limited",
            _(
                "Too many sign-ups from this network in the last hour. Try again later, "
                "or contact the organiser."
            ),
        )
