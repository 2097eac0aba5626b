"""GET /health/: ok when everything answers, 503 "degraded" when something does not."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from django.db.utils import OperationalError

from config import health
from judging.tasks import alerts_sweep


@pytest.fixture
def fresh_marks(db):
    cache.delete_many([health.HEARTBEAT_KEY, health.SWEEP_KEY])
    health.heartbeat()  # as the worker does on beat's schedule
    alerts_sweep()  # the judging sweep records its own run
    yield
    cache.delete_many([health.HEARTBEAT_KEY, health.SWEEP_KEY])


def test_ok_when_database_worker_and_sweep_are_alive(client, fresh_marks, settings):
    settings.REDIS_URL = ""
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["status"] == "ok" and body["database"]["latency_ms"] >= 0
    assert body["redis"] == {"status": "skipped"}
    assert body["celery"]["status"] == "ok" and body["celery"]["age_s"] < 5
    assert body["clock_sweep"]["status"] == "ok"
    assert response["Cache-Control"].startswith("max-age=0")


def test_degraded_when_the_worker_has_not_beaten(client, fresh_marks):
    cache.delete(health.HEARTBEAT_KEY)
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["status"] == "degraded"
    assert response.json()["celery"] == {"status": "missing"}


def test_degraded_when_the_clock_sweep_is_stale(client, fresh_marks):
    cache.set(health.SWEEP_KEY, time.time() - health.SWEEP_MAX_AGE_S - 5)
    body = client.get("/health/").json()
    assert body["status"] == "degraded"
    assert body["clock_sweep"]["status"] == "stale"
    assert body["clock_sweep"]["age_s"] > health.SWEEP_MAX_AGE_S


def test_degraded_when_the_database_fails(client, fresh_marks, monkeypatch):
    class LostConnection:
        def cursor(self):
            raise OperationalError("server closed the connection")

    monkeypatch.setattr(health, "connection", LostConnection())
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["database"] == {"status": "error"}


def test_degraded_when_redis_does_not_answer(client, fresh_marks, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["redis"] == {"status": "error"}


def test_answers_no_secrets_and_only_get(client, fresh_marks, settings):
    text = client.get("/health/").content.decode()
    assert settings.SECRET_KEY not in text and "postgres" not in text
    assert client.post("/health/").status_code == 405
