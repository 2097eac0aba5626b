"""A WSGI layer that serves cached public pages without entering Django.

Public pages (tournament home, pairings, standings, pair pages, bracket) are
the same bytes for every anonymous visitor of one language, and at a DM
final a few hundred phones poll them. Django's middleware stack alone costs
about 2 ms per request; this layer answers a repeated anonymous GET from a
per-process memo in a few microseconds.

Correctness rests on the same rule as the view-level cache: the key contains
``Tournament.data_version`` (read at most once per ``VERSION_TTL`` seconds per
process), which every service bumps when public data changes. Only a
response the view itself marked cacheable (``X-Public-Cacheable``; set only
for anonymous GETs of published tournaments) is stored, with all of Django's
headers (CSP, frame denial, Vary …) except cookies. A request with a session
or a pending message cookie always goes to Django.

Some public answers change without a version bump: the hall screen and its
API follow every move. Their views mark them ``max-age=N`` instead of ``1``
(``core.public_cache.mark_briefly_cacheable``): such a copy is kept for at most N
seconds, then the next request goes to Django again; the version stays in
the key, so a bump also ends it sooner. A stored ``X-Server-Time`` header is
renewed on every copy served, so a client can tell how old the copy is.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable
from http.cookies import SimpleCookie
from typing import Any

from cachetools import LRUCache
from django.conf import settings
from django.db import close_old_connections

from config.middleware import visitor_language
from core.public_cache import MARK_HEADER, SERVER_TIME_HEADER

_PUBLIC_PATH = re.compile(
    r"^(?:/tournaments/(?P<slug>[-\w]+)/(?:standings/|bracket/|rounds/\d+/|pairs/\d+/|hall/)?"
    r"|/api/tournaments/(?P<api_slug>[-\w]+)/hall/)$"
)
_MAX_AGE = re.compile(r"^max-age=(\d+)$")
_ALLOWED_QUERIES = {"", "fragment=1"}
_BYPASS_COOKIES = ("sessionid", "messages")
_MAX_PAGES = 256

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
Headers = list[tuple[str, str]]
Page = tuple[str, Headers, bytes, float | None]
"""status, headers, body, and for a time-bounded copy its ``time.monotonic()`` deadline."""


class PublicPageFastPath:
    def __init__(self, app: WSGIApp) -> None:
        self.app = app
        self.pages: LRUCache[str, Page] = LRUCache(maxsize=_MAX_PAGES)
        self.lock = threading.Lock()  # cachetools' caches are not thread-safe
        self.session_cookie = settings.SESSION_COOKIE_NAME
        self.language_cookie = settings.LANGUAGE_COOKIE_NAME

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        key = self._key(environ)
        if key is None:
            return self.app(environ, start_response)
        with self.lock:
            hit = self.pages.get(key)
            if hit is not None and hit[3] is not None and hit[3] <= time.monotonic():
                del self.pages[key]
                hit = None
        if hit is not None:
            status, headers, body, _deadline = hit
            start_response(status, _renew_server_time(headers))
            return [body]
        return self._fill(key, environ, start_response)

    def _key(self, environ: dict[str, Any]) -> str | None:
        if environ.get("REQUEST_METHOD") != "GET":
            return None
        query = environ.get("QUERY_STRING", "")
        if query not in _ALLOWED_QUERIES:
            return None
        match = _PUBLIC_PATH.match(environ.get("PATH_INFO", ""))
        if match is None:
            return None
        raw_cookies = environ.get("HTTP_COOKIE", "")
        cookies: dict[str, str] = {}
        if raw_cookies:
            parsed = SimpleCookie()
            try:
                parsed.load(raw_cookies)
            except Exception:  # a garbled cookie header: let Django answer
                return None
            cookies = {name: morsel.value for name, morsel in parsed.items()}
            if self.session_cookie in cookies or any(c in cookies for c in _BYPASS_COOKIES):
                return None
        from tournament.page_version import tournament_stamp

        stamp = tournament_stamp(match.group("slug") or match.group("api_slug"))
        close_old_connections()
        if stamp is None or not stamp.published:
            return None
        lang = visitor_language(
            cookie=cookies.get(self.language_cookie), path=environ.get("PATH_INFO", "")
        )
        host = environ.get("HTTP_HOST", "")
        return (
            f"{stamp.pk}:{stamp.created:.6f}:{stamp.version}:{lang}:{host}:"
            f"{environ['PATH_INFO']}?{query}"
        )

    def _fill(
        self, key: str, environ: dict[str, Any], start_response: StartResponse
    ) -> Iterable[bytes]:
        captured: dict[str, Any] = {}

        def capture(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            captured["status"] = status
            captured["headers"] = headers
            clean = [(k, v) for k, v in headers if k != MARK_HEADER]
            if exc_info:
                return start_response(status, clean, exc_info)
            return start_response(status, clean)

        result = self.app(environ, capture)
        status = captured.get("status", "")
        headers = captured.get("headers", [])
        names = {k.lower() for k, _ in headers}
        marks = [v for k, v in headers if k.lower() == MARK_HEADER.lower()]
        mark = marks[0] if len(marks) == 1 and "set-cookie" not in names else None
        max_age = _MAX_AGE.match(mark) if mark else None
        if not status.startswith("200") or (mark != "1" and max_age is None):
            return result
        deadline = time.monotonic() + int(max_age.group(1)) if max_age else None
        body = read_body(result)
        stored = [(k, v) for k, v in headers if k != MARK_HEADER]
        with self.lock:
            self.pages[key] = (status, stored, body, deadline)
        return [body]


def read_body(result: Iterable[bytes]) -> bytes:
    """A WSGI answer's whole body, the answer closed after it (PEP 3333)."""
    try:
        return b"".join(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()


def _renew_server_time(headers: Headers) -> Headers:
    if not any(k == SERVER_TIME_HEADER for k, _ in headers):
        return headers
    now = f"{time.time():.3f}"
    return [(k, now if k == SERVER_TIME_HEADER else v) for k, v in headers]
