"""The judging version of a tournament: a counter bumped when something a judge acts on changes.

Judges' polls (dashboard, calls, the table's judge box) are answered from a
copy shared by every web process (``judging.selectors_polling``) whose cache
key contains this version, so one bump retires every shared copy of the event
at once: an alert raised or acknowledged, a judge call opened, taken or
closed, a clock started, paused, resumed, extended, stopped or out of time, a
ruling. The bump runs after the transaction commits, so a poll that sees the
new version also sees the new rows.

The counter lives in the cache (Redis in production). If it is lost (Redis
restarted, evicted) it starts again from the current time in nanoseconds, so
an old key is never reused; if the cache is down, polls compute afresh.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache import cache
from django.db import transaction

logger = logging.getLogger(__name__)

# Long enough to outlive every shared answer keyed by it (seconds).
_VERSION_TIMEOUT = 24 * 60 * 60


def _key(tournament_id: int) -> str:
    return f"judging:version:{tournament_id}"


def _start(key: str) -> int:
    cache.add(key, time.time_ns(), timeout=_VERSION_TIMEOUT)
    return int(cache.get(key))


def judging_version(*, tournament_id: int) -> int:
    """The current version (starting one if there is none). Raises if the cache is down."""
    key = _key(tournament_id)
    version = cache.get(key)
    return _start(key) if version is None else int(version)


def judging_version_and(*, tournament_id: int, key: str) -> tuple[int, Any]:
    """The current version and the cached value under ``key``, in one round trip."""
    version_key = _key(tournament_id)
    found = cache.get_many([version_key, key])
    version = found.get(version_key)
    return (_start(version_key) if version is None else int(version)), found.get(key)


def _bump(tournament_id: int) -> None:
    key = _key(tournament_id)
    try:
        try:
            cache.incr(key)
        except ValueError:  # no counter yet (or lost): a fresh start is a change too
            cache.add(key, time.time_ns(), timeout=_VERSION_TIMEOUT)
    except Exception:  # a cache outage must never fail a judge's or a table's action
        logger.warning("judging version of tournament %s not bumped", tournament_id, exc_info=True)


def judging_changed(*, tournament_id: int) -> None:
    """Retire the tournament's shared poll answers once the current transaction commits."""
    transaction.on_commit(lambda: _bump(tournament_id))
