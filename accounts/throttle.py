"""Limits on the account pages a stranger can use: the setup code and password reset.

Counted on the site's shared-cache counters (core/ratelimit.py), like the login.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from core.ratelimit import Limit, RateLimited, client_ip, ratelimit_exceeded, ratelimit_hit

SETUP_PER_IP = Limit("setup-code-ip", 10, 15 * 60)
RESET_PER_IP = Limit("password-reset-ip", 10, 60 * 60)
RESET_PER_EMAIL = Limit("password-reset-email", 3, 60 * 60)


def setup_attempt_allow(*, request: HttpRequest) -> None:
    """Count one setup attempt of this client; refuse beyond the limit."""
    ip = client_ip(request)
    if ratelimit_exceeded(limit=SETUP_PER_IP, who=ip):
        raise RateLimited(
            "setup_rate_limited", _("Too many attempts. Wait a quarter of an hour and try again.")
        )
    ratelimit_hit(limit=SETUP_PER_IP, who=ip)


def password_reset_allow(*, request: HttpRequest, email: str) -> None:
    """Count one reset request per client and per address; refuse beyond either limit.

    Counted whether or not an account has the address, so the answer tells
    nothing about which addresses have accounts.
    """
    ip = client_ip(request)
    address = email.strip().lower()
    if ratelimit_exceeded(limit=RESET_PER_IP, who=ip) or ratelimit_exceeded(
        limit=RESET_PER_EMAIL, who=address
    ):
        raise RateLimited(
            "password_reset_rate_limited",
            _("Too many password reset requests. Wait an hour and try again."),
        )
    ratelimit_hit(limit=RESET_PER_IP, who=ip)
    ratelimit_hit(limit=RESET_PER_EMAIL, who=address)
