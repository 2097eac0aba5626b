"""Fixed-window rate limits on the shared cache (Redis in production).

Two things are guessable by brute force: the 6-character table codes typed
at ``/t/`` and passwords at the login forms. Both are counted per client IP
(and logins per username as well) in the Django cache, which every web
process shares, so a limit holds across processes. A window is fixed (the
counter key contains the window number), which is simple, needs one
``incr`` per attempt and forgets old attempts by itself.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from tournament.errors import ApplicationError


@dataclass(frozen=True)
class Limit:
    scope: str
    limit: int
    window_s: int


# A venue's Wi-Fi puts everyone behind one address: the per-IP login limit is
# generous, the per-username limit is what stops guessing one account.
SHORT_CODE_PER_IP = Limit("short-code-ip", 10, 60)
LOGIN_PER_USERNAME = Limit("login-user", 5, 15 * 60)
LOGIN_PER_IP = Limit("login-ip", 30, 15 * 60)


class RateLimited(ApplicationError):
    status_code = 429


def client_ip(request: HttpRequest) -> str:
    """The client address; behind the reverse proxy, the address it appended.

    ``RATELIMIT_PROXY_COUNT`` (production: 1) says how many trusted proxies
    append to ``X-Forwarded-For``; the entry that many places from the right
    is the one a client cannot forge.
    """
    proxies = int(getattr(settings, "RATELIMIT_PROXY_COUNT", 0) or 0)
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if len(hops) >= proxies:
            return hops[-proxies]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _key(limit: Limit, who: str) -> str:
    window = int(time.time() // limit.window_s)
    digest = hashlib.sha256(who.encode()).hexdigest()[:32]
    return f"ratelimit:{limit.scope}:{window}:{digest}"


def ratelimit_count(*, limit: Limit, who: str) -> int:
    """Attempts by ``who`` in the current window."""
    return int(cache.get(_key(limit, who), 0))


def ratelimit_exceeded(*, limit: Limit, who: str) -> bool:
    return ratelimit_count(limit=limit, who=who) >= limit.limit


def ratelimit_hit(*, limit: Limit, who: str) -> int:
    """Count one attempt; returns the attempts in the window including this one."""
    key = _key(limit, who)
    # add() is atomic: only the first attempt of a window creates the key.
    if cache.add(key, 1, timeout=limit.window_s + 1):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add() and incr()
        cache.set(key, 1, timeout=limit.window_s + 1)
        return 1


def ratelimit_reset(*, limit: Limit, who: str) -> None:
    cache.delete(_key(limit, who))


def short_code_lookup_allow(*, request: HttpRequest) -> None:
    """Count one table-code lookup from this client; refuse beyond the limit."""
    if ratelimit_hit(limit=SHORT_CODE_PER_IP, who=client_ip(request)) > SHORT_CODE_PER_IP.limit:
        raise RateLimited(
            "short_code_rate_limited",
            "Too many table codes tried from this device. Wait a minute and try again, "
            "or scan the QR code on the score sheet.",
            "For mange bordkoder prøvet fra denne enhed. Vent et minut og prøv igen, "
            "eller scan QR-koden på scorearket.",
        )


def _login_locked_error() -> RateLimited:
    minutes = LOGIN_PER_USERNAME.window_s // 60
    return RateLimited(
        "login_rate_limited",
        f"Too many failed logins. Wait {minutes} minutes and try again, or ask the "
        "organiser to reset the password.",
        f"For mange mislykkede logins. Vent {minutes} minutter og prøv igen, eller bed "
        "arrangøren om at nulstille adgangskoden.",
    )


def _username_key(username: str) -> str:
    return username.strip().casefold()


class RateLimitedLoginMixin:
    """Login form that refuses to check a password once the limits are reached.

    Failures count per username and per client IP; a successful login resets
    the username's counter. While locked, even the right password is refused,
    so guessing gains nothing.
    """

    request: HttpRequest | None
    locked = False

    def clean(self) -> dict[str, Any]:
        username = _username_key(str(self.data.get("username", "")))  # type: ignore[attr-defined]
        ip = client_ip(self.request) if self.request is not None else "unknown"
        if ratelimit_exceeded(limit=LOGIN_PER_USERNAME, who=username) or ratelimit_exceeded(
            limit=LOGIN_PER_IP, who=ip
        ):
            self.locked = True
            raise forms.ValidationError(_login_locked_error().message, code="rate_limited")
        try:
            cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]
        except forms.ValidationError:
            ratelimit_hit(limit=LOGIN_PER_USERNAME, who=username)
            ratelimit_hit(limit=LOGIN_PER_IP, who=ip)
            raise
        ratelimit_reset(limit=LOGIN_PER_USERNAME, who=username)
        return cleaned


class RateLimitedAuthenticationForm(RateLimitedLoginMixin, AuthenticationForm):
    pass


class RateLimitedAdminAuthenticationForm(RateLimitedLoginMixin, AdminAuthenticationForm):
    pass


class RateLimitedLoginView(LoginView):
    """The site's login page: answers 429 while the limit holds."""

    authentication_form = RateLimitedAuthenticationForm

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if getattr(form, "locked", False):
            response.status_code = 429
        return response
