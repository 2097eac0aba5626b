"""Fixed-window rate limits on the shared cache (Redis in production).

Two things are guessable by brute force: the 6-character table codes typed
at ``/t/`` and passwords at the login forms. Both are counted in the Django
cache, which every web process shares, so a limit holds across processes. A
window is fixed (the counter key contains the window number), which is
simple, needs one ``incr`` per attempt and forgets old attempts by itself.
The cache is a help, never a dependency (core/cache.py): while it is
down the counters read as empty and count nothing (a warning is logged), so
a Redis outage lets everyone in rather than failing every login.

Login failures are counted per *client and username together*, never per
username alone: judges' usernames are shown to tables, and a lock on the
username would let a player lock a judge out of every phone. A client is
the login device (a signed cookie the login page gives every browser) or,
without one, the IP address. A device that has signed in as a user is
trusted for that user: only its own failures count against it. Every
other attempt also counts against its IP address (a venue's Wi-Fi shares
one), which bounds guessing by a client that throws its cookie away.
(docs/security.md, "Login brute force")
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext_lazy as _

from core.cache import cache_key, shared_add, shared_get
from core.errors import ApplicationError
from core.request import field_text

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    scope: str
    limit: int
    window_s: int


# A venue's Wi-Fi puts everyone behind one address: the per-IP login limit is
# generous, the per-client-and-username limit is what stops guessing one account.
SHORT_CODE_PER_IP = Limit("short-code-ip", 10, 60)
LOGIN_PER_CLIENT_USERNAME = Limit("login-client-user", 5, 15 * 60)
LOGIN_PER_IP = Limit("login-ip", 30, 15 * 60)

# Longer than any username (Django's are at most 150 characters).
USERNAME_LENGTH = 200
DEVICE_COOKIE = "dmp_login_device"
DEVICE_COOKIE_AGE = 365 * 24 * 3600
_DEVICE_SALT = "core.ratelimit.login-device"
# A phone shared by a few staff remembers the last few who signed in on it.
_DEVICE_USERS = 8


class RateLimited(ApplicationError):
    status_code = 429


def client_ip(request: HttpRequest) -> str:
    """The client address; behind the reverse proxy, the address it appended.

    ``RATELIMIT_PROXY_COUNT`` (production: 1) says how many trusted proxies
    append to ``X-Forwarded-For``; the entry that many places from the right
    is the one a client cannot forge.
    """
    proxies = int(getattr(settings, "RATELIMIT_PROXY_COUNT", 0) or 0)
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
    if proxies and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if len(hops) >= proxies:
            return hops[-proxies]
    return str(request.META.get("REMOTE_ADDR", "") or "unknown")


def _key(limit: Limit, who: str) -> str:
    window = int(time.time() // limit.window_s)
    digest = hashlib.sha256(who.encode()).hexdigest()[:32]
    return cache_key("ratelimit", limit.scope, window, digest)


def ratelimit_count(*, limit: Limit, who: str) -> int:
    """Attempts by ``who`` in the current window; 0 while the cache is down."""
    return int(shared_get(_key(limit, who)) or 0)


def ratelimit_exceeded(*, limit: Limit, who: str) -> bool:
    return ratelimit_count(limit=limit, who=who) >= limit.limit


def ratelimit_hit(*, limit: Limit, who: str) -> int:
    """Count one attempt; returns the attempts in the window including this one.

    While the cache is down nothing is counted and the answer is 1.
    """
    key = _key(limit, who)
    # add() is atomic: only the first attempt of a window creates the key
    # (and it answers True while the cache is down).
    if shared_add(key, limit.window_s + 1):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add() and incr()
        cache.set(key, 1, timeout=limit.window_s + 1)
        return 1
    except Exception:
        logger.warning("shared cache unavailable", exc_info=True)
        return 1


def ratelimit_reset(*, limit: Limit, who: str) -> None:
    try:
        cache.delete(_key(limit, who))
    except Exception:
        logger.warning("shared cache unavailable", exc_info=True)


def short_code_lookup_allow(*, request: HttpRequest) -> None:
    """Count one table-code lookup from this client; refuse beyond the limit."""
    if ratelimit_hit(limit=SHORT_CODE_PER_IP, who=client_ip(request)) > SHORT_CODE_PER_IP.limit:
        raise RateLimited(
            "short_code_rate_limited",
            _(
                "Too many table codes tried from this device. Wait a minute and try "
                "again, or scan the QR code on the score sheet."
            ),
        )


def _login_locked_error() -> RateLimited:
    minutes = LOGIN_PER_CLIENT_USERNAME.window_s // 60
    return RateLimited(
        "login_rate_limited",
        _(
            "Too many failed logins. Wait %(minutes)s minutes and try again, or ask "
            "the organiser to reset the password."
        ),
        params={"minutes": minutes},
    )


def _username_key(username: str) -> str:
    """The username as the counters see it (case and surrounding spaces ignored), hashed:
    the device cookie does not show who signed in on a phone."""
    return hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:24]


@dataclass(frozen=True)
class LoginDevice:
    """A browser's login identity: a random id and the users who signed in with it."""

    id: str
    users: tuple[str, ...] = ()

    def with_user(self, user_key: str) -> LoginDevice:
        users = (user_key, *(u for u in self.users if u != user_key))[:_DEVICE_USERS]
        return LoginDevice(self.id, users)


def login_device(request: HttpRequest) -> LoginDevice | None:
    """The device the request's cookie names, if its signature holds."""
    value = request.COOKIES.get(DEVICE_COOKIE)
    if not value:
        return None
    try:
        data = signing.loads(value, salt=_DEVICE_SALT, max_age=DEVICE_COOKIE_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        return None
    users = data.get("users")
    return LoginDevice(data["id"], tuple(u for u in users if isinstance(u, str)) if users else ())


def login_device_cookie_set(response: HttpResponseBase, device: LoginDevice) -> None:
    response.set_cookie(
        DEVICE_COOKIE,
        signing.dumps({"id": device.id, "users": list(device.users)}, salt=_DEVICE_SALT),
        max_age=DEVICE_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def new_login_device() -> LoginDevice:
    return LoginDevice(secrets.token_urlsafe(18))


class RateLimitedLoginMixin:
    """Login form that refuses to check a password once the limits are reached.

    Failures count per client and username together, and (for a client not
    trusted for that user) per IP; see the module doc. A successful login
    resets its client's counter for the user. While locked, even the right
    password is refused, so guessing gains nothing.
    """

    request: HttpRequest | None
    locked = False
    user_key = ""

    def clean(self) -> dict[str, Any]:
        typed = field_text(self.data, "username", max_length=USERNAME_LENGTH)  # type: ignore[attr-defined]
        self.user_key = _username_key(typed)
        ip = client_ip(self.request) if self.request is not None else "unknown"
        device = login_device(self.request) if self.request is not None else None
        client = f"device:{device.id}" if device else f"ip:{ip}"
        who = f"{client}\n{self.user_key}"
        trusted = device is not None and self.user_key in device.users
        if ratelimit_exceeded(limit=LOGIN_PER_CLIENT_USERNAME, who=who) or (
            not trusted and ratelimit_exceeded(limit=LOGIN_PER_IP, who=ip)
        ):
            self.locked = True
            raise forms.ValidationError(_login_locked_error().message, code="rate_limited")
        try:
            cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]
        except forms.ValidationError:
            ratelimit_hit(limit=LOGIN_PER_CLIENT_USERNAME, who=who)
            if not trusted:
                ratelimit_hit(limit=LOGIN_PER_IP, who=ip)
            raise
        ratelimit_reset(limit=LOGIN_PER_CLIENT_USERNAME, who=who)
        return cleaned


class RateLimitedAuthenticationForm(RateLimitedLoginMixin, AuthenticationForm):
    pass


class RateLimitedAdminAuthenticationForm(RateLimitedLoginMixin, AdminAuthenticationForm):
    pass


class RateLimitedLoginView(LoginView):
    """The site's login page: answers 429 while the limit holds.

    Gives every browser its login device cookie, and marks the device as
    trusted for the user who signs in with it.
    """

    authentication_form = RateLimitedAuthenticationForm

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = super().dispatch(request, *args, **kwargs)
        if login_device(request) is None and DEVICE_COOKIE not in response.cookies:
            login_device_cookie_set(response, new_login_device())
        return response

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        device = login_device(self.request) or new_login_device()
        login_device_cookie_set(response, device.with_user(form.user_key))
        return response

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if getattr(form, "locked", False):
            response.status_code = 429
        return response
