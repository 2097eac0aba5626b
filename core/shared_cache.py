"""The shared cache (Redis in production) as a help, never a dependency.

An outage of the cache must not block a table, a hall screen or a judge:
every call here answers as if the cache were empty (and logs a warning)
instead of raising. ``shared_add`` answers True when the cache is down, so
the caller does the work itself rather than waiting for someone else.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache

logger = logging.getLogger(__name__)


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
