"""When background work last ran, kept in the shared cache for ``GET /health/`` (config.health)."""

from __future__ import annotations

import contextlib
import time

from django.core.cache import cache

HEARTBEAT_KEY = "health:celery"
SWEEP_KEY = "health:sweep"


def health_mark(key: str) -> None:
    """Record that ``key`` ran now; never fails the caller (the cache may be down)."""
    # A health mark must never break the real work it is called from.
    with contextlib.suppress(Exception):
        cache.set(key, time.time(), timeout=24 * 3600)
