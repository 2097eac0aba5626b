"""An event's public pages cached under its ``Tournament.data_version``.

Every service that changes what public pages show bumps ``data_version``, so
a page cached under the current version can never be stale for longer than
it takes to notice the bump. To serve a cache hit without touching the
database, each process remembers the (id, version) of a tournament for
``VERSION_TTL`` seconds; after that one indexed query refreshes it. The page
cache itself (Django's cache plus a small per-process LRU, anonymous GETs
only) is the site's: ``core.public_cache.serve_cached``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse

from core.cache import cache_key
from core.public_cache import forget_pages, request_cacheable, serve_cached
from tournament.models import Tournament

VERSION_TTL = 1.0


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
    forget_pages()


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
    key = cache_key("pub", stamp.pk, f"{stamp.created:.6f}", stamp.version, page)
    return serve_cached(request, key, render_page)
