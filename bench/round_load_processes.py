"""The round load harness's processes: the private Redis, gunicorn, the Celery
worker and beat, their CPU time, and the faults injected into them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from typing import Any

import harness
from harness import (
    children,
    cpu_seconds,
    stop,
    terminate_backends,
)
from round_load_clients import Stats

VAR = harness.VAR
ACCESS_LOG = VAR / "round_load_access.log"
GUNICORN_LOG = VAR / "round_load-gunicorn.log"


# --- environment and processes -------------------------------------------------


def environment(args: argparse.Namespace) -> dict[str, str]:
    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench_round")
    if not url.startswith("postgres"):
        sys.exit("DATABASE_URL must name a PostgreSQL database used only for this benchmark")
    env = dict(os.environ)
    env.update(
        DATABASE_URL=url,
        REDIS_URL=f"redis://127.0.0.1:{args.redis_port}/0",
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY=env.get("DJANGO_SECRET_KEY", harness.SECRET_KEY),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_SSL_REDIRECT="False",
        DB_CONN_MAX_AGE="60",
        LOG_LEVEL="WARNING",
        # config/gc_tuning.py: log garbage-collector pauses of 10 ms and more.
        GC_PAUSE_LOG_MS="10",
    )
    return env


def start_redis(port: int) -> subprocess.Popen[bytes]:
    return harness.start_redis(port, "round_load-redis.log")


def start_gunicorn(env: dict[str, str], args: argparse.Namespace, port: int) -> subprocess.Popen:
    return harness.start_gunicorn(
        env,
        port,
        log=GUNICORN_LOG,
        workers=args.workers,
        worker_class=args.worker_class,
        threads=args.threads,
        access_log=ACCESS_LOG,
        access_format="%(m)s %(U)s %(s)s %(D)s %(p)s %(t)s",
    )


def start_worker(env: dict[str, str], nice: int = 0) -> subprocess.Popen[bytes]:
    return harness.start_celery_worker(
        env, name="bench-round@%h", log="round_load-worker.log", nice=nice
    )


def start_beat(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return harness.start_celery_beat(
        env, schedule=VAR / "round_load-beat-schedule", log="round_load-beat.log"
    )


def cpu_by_part(procs: Processes) -> dict[str, float]:
    """CPU seconds of gunicorn (workers), Celery (worker + pool, beat), Redis and this
    load tool; PostgreSQL is the rest of the machine's busy time."""
    parts = {
        "gunicorn": [
            p for p in ([procs.gunicorn.pid] if procs.gunicorn else []) for p in [p, *children(p)]
        ],
        "celery": [
            p
            for proc in (procs.worker, procs.beat)
            if proc
            for p in [proc.pid, *children(proc.pid)]
        ],
        "redis": [procs.redis.pid] if procs.redis else [],
    }
    out = {name: round(cpu_seconds(pids), 1) for name, pids in parts.items()}
    own = os.times()
    out["load_tool"] = round(own.user + own.system, 1)
    return out


# --- faults ----------------------------------------------------------------------


class Processes:
    def __init__(self, env: dict[str, str], args: argparse.Namespace, port: int) -> None:
        self.env, self.args, self.port = env, args, port
        self.redis: subprocess.Popen[bytes] | None = None
        self.gunicorn: subprocess.Popen[bytes] | None = None
        self.worker: subprocess.Popen[bytes] | None = None
        self.beat: subprocess.Popen[bytes] | None = None

    def all(self) -> list[subprocess.Popen[bytes] | None]:
        return [self.beat, self.worker, self.gunicorn, self.redis]


async def inject_faults(procs: Processes, stats: Stats, duration: float) -> list[dict[str, Any]]:
    log = []

    def postgres() -> str:
        return f"terminated {terminate_backends(procs.env['DATABASE_URL'])} backends"

    def redis() -> str:
        stop(procs.redis)
        procs.redis = start_redis(procs.args.redis_port)
        return "private redis-server stopped and started (empty: no persistence)"

    def gunicorn() -> str:
        workers = children(procs.gunicorn.pid) if procs.gunicorn else []
        if not workers:
            return "no worker found"
        os.kill(workers[0], signal.SIGKILL)
        return f"kill -9 gunicorn worker {workers[0]}"

    def celery() -> str:
        pid = procs.worker.pid if procs.worker else 0
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
        procs.worker.wait(10)
        procs.worker = start_worker(procs.env, procs.args.worker_nice)
        return f"kill -9 celery worker {pid} (and its pool), started again"

    plan = [
        (0.25, "restart PostgreSQL", postgres),
        (0.4, "restart Redis", redis),
        (0.55, "kill a gunicorn worker", gunicorn),
        (0.7, "kill the Celery worker", celery),
    ]
    for fraction, name, action in plan:
        await asyncio.sleep(max(0.0, stats.start + fraction * duration - time.monotonic()))
        stats.faults.append((time.monotonic(), name))
        detail = await asyncio.to_thread(action)
        log.append(
            {"at_s": round(time.monotonic() - stats.start, 1), "fault": name, "detail": detail}
        )
    return log
