"""``GET /health/``: is this instance able to run an event right now?

Checks, each cheap and bounded by a short timeout:

* ``database`` — ``SELECT 1`` and its latency;
* ``redis`` — ``PING`` on ``REDIS_URL`` ("skipped" on the embedded default);
* ``celery`` — age of the last heartbeat written by the beat-scheduled
  ``config.health.heartbeat`` task (run by a worker, so it proves both beat
  and a worker are alive);
* ``clock_sweep`` — age of the last judging alert sweep (``judging.tasks``).

The two ages are kept in the cache (Redis in production), so every web
process sees the same value. Answers 200 with ``"status": "ok"`` or 503 with
``"status": "degraded"``; it names no host, password or version.
"""

from __future__ import annotations

import time
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from core.health_marks import HEARTBEAT_KEY, SWEEP_KEY, health_mark

# Beat sends the heartbeat every 10 s and the sweep every second; allow for
# a busy worker before calling it stale.
HEARTBEAT_MAX_AGE_S = 60.0
SWEEP_MAX_AGE_S = 30.0


@shared_task(ignore_result=True)
def heartbeat() -> None:
    health_mark(HEARTBEAT_KEY)


def _database() -> dict[str, Any]:
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any failure means "not ok"
        return {"status": "error"}
    return {"status": "ok", "latency_ms": round((time.perf_counter() - started) * 1000, 2)}


def _redis() -> dict[str, Any]:
    if not settings.REDIS_URL:
        return {"status": "skipped"}
    import redis

    started = time.perf_counter()
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5
        )
        client.ping()
        client.close()
    except Exception:
        return {"status": "error"}
    return {"status": "ok", "latency_ms": round((time.perf_counter() - started) * 1000, 2)}


def _age(key: str, max_age_s: float) -> dict[str, Any]:
    try:
        last = cache.get(key)
    except Exception:
        return {"status": "error"}
    if last is None:
        return {"status": "missing"}
    age = max(0.0, time.time() - float(last))
    return {"status": "ok" if age <= max_age_s else "stale", "age_s": round(age, 1)}


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    checks = {
        "database": _database(),
        "redis": _redis(),
        "celery": _age(HEARTBEAT_KEY, HEARTBEAT_MAX_AGE_S),
        "clock_sweep": _age(SWEEP_KEY, SWEEP_MAX_AGE_S),
    }
    healthy = all(check["status"] in ("ok", "skipped") for check in checks.values())
    body = {"status": "ok" if healthy else "degraded", **checks}
    return JsonResponse(body, status=200 if healthy else 503)
