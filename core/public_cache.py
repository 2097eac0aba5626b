"""What a view tells the WSGI fast path (``config.public_fastpath``) about its answer.

A view marks an anonymous GET's answer with ``X-Public-Cacheable``: ``1``
(keep it until the tournament's data version changes) or ``max-age=N``
(keep it at most N seconds). The fast path strips the mark before the answer
leaves the server. ``X-Server-Time`` says when an answer was made; the fast
path renews it on every copy it serves.

The page cache: ``serve_cached`` keeps a page under a key that must change
whenever its data does (an event's ``data_version``:
``tournament.page_version.cached_public_page``; the ratings' version:
``ratings.page_version``). Cached HTML lives in Django's cache (Redis with
``REDIS_URL``, shared by every process), so a version bump seen by one process
is honoured by all of them. Because the key contains the version, a page once
fetched can also be kept in this process (a small LRU): a hit then needs
neither the database nor Redis (measured: 24 µs against 160-220 µs for a
57 kB page from Redis, bench/page_memo.py). Only anonymous GET requests are served from
the cache (signed-in users see their name and messages). The CSRF token of
the language switch differs per visitor, so it is stored as a placeholder and
filled in on every hit.
"""

from __future__ import annotations

import datetime
import hashlib
import re
import threading
from collections.abc import Callable
from typing import TypeVar

from cachetools import LRUCache
from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils import translation

from core.cache import cache_key

MARK_HEADER = "X-Public-Cacheable"
PAGE_TTL = 60 * 60
SERVER_TIME_HEADER = "X-Server-Time"
_CACHEABLE_PARAMS = {"fragment"}

Answer = TypeVar("Answer", bound=HttpResponse)

_CSRF_PLACEHOLDER = "\x00csrf-token\x00"
_CSRF_INPUT = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')
_LOCAL_PAGES = 64
_pages: LRUCache[str, tuple[str, str]] = LRUCache(maxsize=_LOCAL_PAGES)
_pages_lock = threading.Lock()  # cachetools' caches are not thread-safe


def request_cacheable(request: HttpRequest) -> bool:
    """Whether the answer to ``request`` is the same for every anonymous visitor."""
    if request.method != "GET" or request.user.is_authenticated:
        return False
    if not set(request.GET) <= _CACHEABLE_PARAMS:
        return False
    # A pending message (e.g. "logged out") must be shown, not cached.
    return len(messages.get_messages(request)) == 0


def mark_briefly_cacheable(
    request: HttpRequest,
    response: Answer,
    *,
    published: bool,
    seconds: int,
    now: datetime.datetime,
) -> Answer:
    """Let the WSGI fast path keep an anonymous GET's answer for ``seconds``.

    For pages whose data changes without a ``data_version`` bump (the hall
    screen follows every move): such a copy is stale by at most ``seconds``,
    never by more. The response also says when it is sent (``X-Server-Time``,
    epoch seconds, renewed by the fast path on every copy it serves), so a
    display counting on from a time inside the answer knows how old it is.
    ``now`` is when the answer was made.
    """
    response[SERVER_TIME_HEADER] = f"{now.timestamp():.3f}"
    if published and response.status_code == 200 and request_cacheable(request):
        response[MARK_HEADER] = f"max-age={seconds}"
    return response


def _placeholder_input(match: re.Match[str]) -> str:
    return f"{match.group(1)}{_CSRF_PLACEHOLDER}{match.group(2)}"


def forget_pages() -> None:
    """Drop the per-process page memo (tests)."""
    with _pages_lock:
        _pages.clear()


def _local_get(key: str) -> tuple[str, str] | None:
    with _pages_lock:
        return _pages.get(key)


def _local_set(key: str, page: tuple[str, str]) -> None:
    with _pages_lock:
        _pages[key] = page


def cached_page(
    request: HttpRequest, version_key: str, render_page: Callable[[], HttpResponse]
) -> HttpResponse:
    """The page for ``version_key`` (which must change whenever its data does)
    from the cache, or rendered and stored: public pages that are not a
    tournament's (a season's). Requests that may not be cached are rendered."""
    if not request_cacheable(request):
        return render_page()
    return serve_cached(request, version_key, render_page)


def serve_cached(
    request: HttpRequest, version_key: str, render_page: Callable[[], HttpResponse]
) -> HttpResponse:
    """The page for ``version_key`` from the cache, or rendered and stored
    (for a request the caller found cacheable)."""
    path_hash = hashlib.blake2b(request.get_full_path().encode(), digest_size=12).hexdigest()
    lang = translation.get_language() or "da"
    key = cache_key("page", version_key, lang, path_hash)
    stored = _local_get(key)
    if stored is None:
        stored = cache.get(key)
        if stored is not None:
            _local_set(key, stored)
    if stored is None:
        response = render_page()
        if response.status_code != 200:
            return response
        html = _CSRF_INPUT.sub(_placeholder_input, response.content.decode())
        stored = (html, response["Content-Type"])
        cache.set(key, stored, PAGE_TTL)
        _local_set(key, stored)
        response[MARK_HEADER] = "1"
        return response
    html, content_type = stored
    if _CSRF_PLACEHOLDER in html:
        html = html.replace(_CSRF_PLACEHOLDER, get_token(request))
    response = HttpResponse(html, content_type=content_type)
    response[MARK_HEADER] = "1"
    return response
