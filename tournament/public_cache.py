"""Caching of the public pages, keyed on ``Tournament.data_version``.

Every service that changes what public pages show bumps ``data_version``, so
a page cached under the current version can never be stale for longer than
it takes to notice the bump. To serve a cache hit without touching the
database, each process remembers the (id, version) of a tournament for
``VERSION_TTL`` seconds; after that one indexed query refreshes it. Cached
HTML lives in Django's cache (Redis with ``REDIS_URL``, shared by every
process), so a version bump seen by one process is honoured by all of them.

Because the key contains the version, a page once fetched can also be kept
in this process (a small LRU): a hit then needs neither the database nor
Redis. Only anonymous GET requests are served from the cache (signed-in users see
their name and messages). The CSRF token of the language switch differs per
visitor, so it is stored as a placeholder and filled in on every hit.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from cachetools import LRUCache
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils import translation

from core.public_cache import MARK_HEADER, request_cacheable
from tournament.models import Tournament

VERSION_TTL = 1.0
PAGE_TTL = 60 * 60
_CSRF_PLACEHOLDER = "\x00csrf-token\x00"
_CSRF_INPUT = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')


def _placeholder_input(match: re.Match[str]) -> str:
    return f"{match.group(1)}{_CSRF_PLACEHOLDER}{match.group(2)}"


@dataclass(frozen=True)
class TournamentStamp:
    pk: int
    version: int
    published: bool
    language: str
    # Part of the key so a recreated database (ids start again at 1) can
    # never meet pages cached for an earlier tournament with the same id.
    created: float


# Only tournaments that exist are remembered: every visited address under
# /tournaments/<slug>/ asks, made-up slugs too, and they must not fill the memo.
# A plain dict, not a cachetools cache: the fast path asks twice per request
# (language, key), and a dict lookup is a fifth of a TTLCache's.
_MAX_STAMPS = 1024
_stamps: dict[str, tuple[float, TournamentStamp]] = {}
_LOCAL_PAGES = 64
_pages: LRUCache[str, tuple[str, str]] = LRUCache(maxsize=_LOCAL_PAGES)
_pages_lock = threading.Lock()  # cachetools' caches are not thread-safe


def tournament_stamp(slug: str) -> TournamentStamp | None:
    """The tournament's id and data version, remembered for ``VERSION_TTL`` s."""
    now = time.monotonic()
    memo = _stamps.get(slug)
    if memo is not None and memo[0] > now:
        return memo[1]
    row = (
        Tournament.objects.filter(slug=slug)
        .values_list("pk", "data_version", "published", "language", "created_at")
        .first()
    )
    if row is None:
        _stamps.pop(slug, None)
        return None
    stamp = TournamentStamp(row[0], row[1], row[2], row[3], row[4].timestamp())
    if len(_stamps) >= _MAX_STAMPS:
        _stamps.clear()  # a memo, not a store: forgetting it all is safe
    _stamps[slug] = (now + VERSION_TTL, stamp)
    return stamp


def forget_stamps() -> None:
    """Drop the per-process memos (tests)."""
    _stamps.clear()
    with _pages_lock:
        _pages.clear()


def _local_get(key: str) -> tuple[str, str] | None:
    with _pages_lock:
        return _pages.get(key)


def _local_set(key: str, page: tuple[str, str]) -> None:
    with _pages_lock:
        _pages[key] = page


def cached_public_page(
    request: HttpRequest, slug: str, page: str, render_page: Callable[[], HttpResponse]
) -> HttpResponse:
    """Serve ``page`` of tournament ``slug`` from the cache, or render and store it.

    ``render_page`` does the real work (selectors, template); it may raise
    ``Http404``. Unpublished tournaments are never cached.
    """
    if not request_cacheable(request):
        return render_page()
    stamp = tournament_stamp(slug)
    if stamp is None:
        raise Http404
    if not stamp.published:
        return render_page()
    return _serve(
        request, f"pub:{stamp.pk}:{stamp.created:.6f}:{stamp.version}:{page}", render_page
    )


def cached_page(
    request: HttpRequest, version_key: str, render_page: Callable[[], HttpResponse]
) -> HttpResponse:
    """The page for ``version_key`` (which must change whenever its data does)
    from the cache, or rendered and stored: public pages that are not a
    tournament's (a season's). Requests that may not be cached are rendered."""
    if not request_cacheable(request):
        return render_page()
    return _serve(request, version_key, render_page)


def _serve(
    request: HttpRequest, version_key: str, render_page: Callable[[], HttpResponse]
) -> HttpResponse:
    path_hash = hashlib.blake2b(request.get_full_path().encode(), digest_size=12).hexdigest()
    lang = translation.get_language() or "da"
    key = f"{version_key}:{lang}:{path_hash}"
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
