"""Versioned counters: a number in the shared cache bumped when something changes.

A shared answer whose cache key contains the version of what it shows is
retired by one bump, in every web process at once (judging's polls:
``judging.services.freshness``). The bump runs after the transaction
commits, so a reader that sees the new version also sees the new rows.

A counter lives in the cache (Redis in production). If it is lost (Redis
restarted, evicted) it starts again from the current time in nanoseconds, so
an old key is never reused; if the cache is down, a read raises (the caller
computes afresh) and a bump is logged and skipped.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache import cache
from django.db import transaction

logger = logging.getLogger(__name__)

# Long enough to outlive every shared answer keyed by a version (seconds).
VERSION_TIMEOUT = 24 * 60 * 60


class VersionCounter:
    """One counter per scope (a tournament id, …), cache key ``<name>:version:<scope>``."""

    def __init__(self, name: str, *, timeout: int = VERSION_TIMEOUT) -> None:
        self.name = name
        self.timeout = timeout

    def key(self, scope: int | str) -> str:
        """The cache key of ``scope``'s counter."""
        return f"{self.name}:version:{scope}"

    def _start(self, key: str) -> int:
        cache.add(key, time.time_ns(), timeout=self.timeout)
        return int(cache.get(key))

    def current(self, scope: int | str) -> int:
        """The current version (starting one if there is none). Raises if the cache is down."""
        key = self.key(scope)
        version = cache.get(key)
        return self._start(key) if version is None else int(version)

    def current_and(self, scope: int | str, key: str) -> tuple[int, Any]:
        """The current version and the cached value under ``key``, in one round trip."""
        version_key = self.key(scope)
        found = cache.get_many([version_key, key])
        version = found.get(version_key)
        return (self._start(version_key) if version is None else int(version)), found.get(key)

    def bump(self, scope: int | str) -> None:
        """Move the version on now; a cache outage is logged, never raised."""
        key = self.key(scope)
        try:
            try:
                cache.incr(key)
            except ValueError:  # no counter yet (or lost): a fresh start is a change too
                cache.add(key, time.time_ns(), timeout=self.timeout)
        except Exception:  # a cache outage must never fail the action that changed something
            logger.warning("%s version of %s not bumped", self.name, scope, exc_info=True)

    def bump_on_commit(self, scope: int | str) -> None:
        """Move the version on once the current transaction commits."""
        transaction.on_commit(lambda: self.bump(scope))
