"""The one cache: namespaced keys over Django's cache, and data versions.

Everything the site keeps in Django's cache (Redis in production, shared by
every process) is named by ``cache_key(namespace, *parts)``; docs/caching.md
lists the namespaces.

A *data version* is a number per scope (``scope("judging", tournament_id)``,
``scope("people")``) that only grows. The service that changes what a cached
answer shows bumps its scope after the commit (``bump_on_commit``), and the
answer's key holds the version, so one bump retires every copy in every
process at once, whatever the backend. Events and series keep their version
in their own row (``Tournament.data_version``, ``Series.data_version``: it
travels in backups and hand-overs and is read with the row); every other
scope's lives here.

A version kept here that is lost (Redis restarted, evicted) starts again from
the current time in nanoseconds, so an old key is never met again. If the
cache is down, reading a version raises (the caller computes afresh) and a
bump is logged and skipped.

The ``shared_*`` helpers treat the cache as a help, never a dependency: an
outage must not block a table, a hall screen or a judge, so they answer as if
the cache were empty (and log a warning) instead of raising. ``shared_add``
answers True when the cache is down, so the caller does the work itself
rather than waiting for someone else.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache import cache
from django.db import transaction

logger = logging.getLogger(__name__)

# Long enough to outlive every answer keyed by a version (seconds).
VERSION_TIMEOUT = 24 * 60 * 60


def cache_key(namespace: str, *parts: object) -> str:
    """The key of one value in ``namespace``: ``namespace:part:part…``."""
    return ":".join((namespace, *(str(part) for part in parts)))


def scope(namespace: str, *parts: object) -> str:
    """The name of a data version: what changes together (``scope("judging", 7)``)."""
    return cache_key(namespace, *parts)


def _version_key(of: str) -> str:
    return cache_key("version", of)


def _start(key: str) -> int:
    fresh = time.time_ns()
    cache.add(key, fresh, timeout=VERSION_TIMEOUT)
    found = cache.get(key)  # another process may have started it first
    return fresh if found is None else int(found)


def data_version(of: str) -> int:
    """The current version of scope ``of`` (starting one if there is none).

    Raises if the cache is down."""
    key = _version_key(of)
    version = cache.get(key)
    return _start(key) if version is None else int(version)


def data_version_and(of: str, key: str) -> tuple[int, Any]:
    """The current version of ``of`` and the cached value under ``key``, in one round trip."""
    version_key = _version_key(of)
    found = cache.get_many([version_key, key])
    version = found.get(version_key)
    return (_start(version_key) if version is None else int(version)), found.get(key)


def bump(of: str) -> None:
    """Move the version of ``of`` on now; a cache outage is logged, never raised."""
    key = _version_key(of)
    try:
        try:
            cache.incr(key)
        except ValueError:  # no version yet (or lost): a fresh start is a change too
            cache.add(key, time.time_ns(), timeout=VERSION_TIMEOUT)
    except Exception:  # a cache outage must never fail the action that changed something
        logger.warning("version of %s not bumped", of, exc_info=True)


def bump_on_commit(of: str) -> None:
    """Move the version of ``of`` on once the current transaction commits.

    Not before: an answer built from the old rows meanwhile must not be kept
    under the new version."""
    transaction.on_commit(lambda: bump(of))


def shared_get(key: str) -> Any:
    """``cache.get``; None when the cache is down."""
    try:
        return cache.get(key)
    except Exception:
        logger.warning("shared cache unavailable", exc_info=True)
        return None


def shared_get_many(keys: list[str]) -> dict[str, Any]:
    """``cache.get_many``; nothing found when the cache is down."""
    try:
        return dict(cache.get_many(keys)) if keys else {}
    except Exception:
        logger.warning("shared cache unavailable", exc_info=True)
        return {}


def shared_add(key: str, seconds: float) -> bool:
    """``cache.add`` of a marker; True (do the work here) when the cache is down."""
    try:
        return bool(cache.add(key, 1, seconds))
    except Exception:
        logger.warning("shared cache unavailable", exc_info=True)
        return True


def shared_set(key: str, value: Any, seconds: float) -> None:
    """``cache.set``; nothing happens when the cache is down."""
    try:
        cache.set(key, value, seconds)
    except Exception:
        logger.warning("shared cache unavailable", exc_info=True)


def shared_set_many(values: dict[str, Any], seconds: float) -> None:
    """``cache.set_many``; nothing happens when the cache is down."""
    try:
        cache.set_many(values, seconds)
    except Exception:
        logger.warning("shared cache unavailable", exc_info=True)


def shared_delete(key: str) -> None:
    """``cache.delete``; nothing happens when the cache is down."""
    try:
        cache.delete(key)
    except Exception:
        logger.warning("shared cache unavailable", exc_info=True)
