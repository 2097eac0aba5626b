"""Alerts with a real Celery worker + beat on a real (private) Redis.

The test session starts its own ``redis-server`` on a free port (never the
shared one: it is killed and restarted here) and a worker and beat as
subprocesses pointed at this session's PostgreSQL test database, so both
sides see the same rows. Clocks run fast (``SPEED`` clock minutes per real
minute), so the 50-minute mark comes after a few real seconds.

Only rows are asserted, never speed: latency is measured by
``bench/alert_latency.py``.
"""

from __future__ import annotations

import datetime
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.models import Game, GameClock
from games.services.clock import (
    clock_extend,
    clock_pause,
    clock_resume,
    clock_start_round,
    clock_stop,
)
from games.services.judges import JudgeAtGame
from judging.models import Alert
from tests.factories import GameFactory, RoundFactory, TournamentFactory, judge_of

pytestmark = [pytest.mark.slow, pytest.mark.redis]

SPEED = 600.0  # one clock minute = 0.1 s: the alert mark after 5 s, the limit after 6 s
MARK_S = 50 * 60 / SPEED
LIMIT_S = 60 * 60 / SPEED


def _unavailable(reason: str) -> None:
    if os.environ.get("CI_REQUIRE_REDIS"):
        pytest.fail(f"{reason} (CI_REQUIRE_REDIS is set)")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class Backend:
    """A private redis-server, a Celery worker and beat, all restartable."""

    def __init__(self, tmp: Path, database_url: str) -> None:
        self.tmp = tmp
        self.port = _free_port()
        self.redis_url = f"redis://127.0.0.1:{self.port}/0"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": database_url,
            "REDIS_URL": self.redis_url,
            "PYTHONUNBUFFERED": "1",
        }
        self.redis: subprocess.Popen[bytes] | None = None
        self.worker: subprocess.Popen[bytes] | None = None
        self.beat: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def _spawn(self, name: str, cmd: list[str]) -> subprocess.Popen[bytes]:
        log = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115 - closed with the process
        return subprocess.Popen(
            cmd, cwd=settings.BASE_DIR, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )

    def start_redis(self) -> None:
        self.redis = self._spawn(
            "redis",
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.tmp),
            ],
        )
        import redis

        client = redis.Redis.from_url(self.redis_url)

        def up() -> bool:
            try:
                return bool(client.ping())
            except redis.ConnectionError:
                return False

        _wait_for(up, 10, "redis-server")

    def stop_redis(self) -> None:
        self._kill(self.redis)
        self.redis = None

    def start_worker(self) -> None:
        self.starts += 1
        log = self.tmp / "worker.log"
        before = log.read_text() if log.exists() else ""
        self.worker = self._spawn(
            "worker",
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--hostname",
                f"clocktest{self.starts}@%h",
            ],
        )
        _wait_for(
            lambda: log.read_text().count(" ready.") > before.count(" ready."),
            40,
            "the worker to be ready",
        )

    def kill_worker(self) -> None:
        """SIGKILL: a crash, not a clean shutdown (tasks in memory are lost)."""
        self._kill(self.worker)
        self.worker = None

    def supervise(self) -> bool:
        """Restart a worker that exited, as systemd's Restart=always does.

        kombu's Redis transport makes a worker exit when Redis disappears
        while it holds unacknowledged (ETA) messages; see docs/clock.md.
        """
        if self.worker is not None and self.worker.poll() is not None:
            self.start_worker()
            return True
        return False

    def start_beat(self) -> None:
        self.beat = self._spawn(
            "beat",
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "beat",
                "--loglevel=INFO",
                "--schedule",
                str(self.tmp / "beat-schedule"),
                "--max-interval",
                "1",
            ],
        )

    @staticmethod
    def _kill(proc: subprocess.Popen[bytes] | None) -> None:
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)

    def stop_all(self) -> None:
        for proc in (self.worker, self.beat, self.redis):
            self._kill(proc)


def _database_url() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture(scope="module")
def backend(django_db_setup, django_db_blocker) -> Iterator[Backend]:
    with django_db_blocker.unblock():
        if connection.vendor != "postgresql":
            _unavailable("needs PostgreSQL shared with the worker (set DATABASE_URL)")
        database_url = _database_url()
    if not shutil.which("redis-server"):
        _unavailable("needs redis-server for a private Redis")
    from config.celery import app

    tmp = Path(tempfile.mkdtemp(prefix="clock-worker-"))
    backend = Backend(tmp, database_url)
    saved = (app.conf.broker_url, app.conf.broker_transport_options)
    try:
        backend.start_redis()
        # This process queues the per-game tasks: send them to the private Redis.
        app.conf.broker_url = backend.redis_url
        app.conf.broker_transport_options = {}
        app._pool = None
        app.amqp._producer_pool = None
        backend.start_beat()
        backend.start_worker()
        yield backend
    finally:
        backend.stop_all()
        app.conf.broker_url, app.conf.broker_transport_options = saved
        app._pool = None
        app.amqp._producer_pool = None
        for log in sorted(tmp.glob("*.log")):
            print(f"--- {log.name} (tail)\n" + "\n".join(log.read_text().splitlines()[-15:]))
        if not os.environ.get("CLOCK_TEST_KEEP_LOGS"):
            shutil.rmtree(tmp, ignore_errors=True)


def _round(tables: int):
    tournament = TournamentFactory(clock_speed=SPEED)
    round_ = RoundFactory(tournament=tournament)
    games = [GameFactory(round=round_, table_number=n + 1) for n in range(tables)]
    return round_, games


def _alerts(games) -> list[tuple[int, str]]:
    return sorted(Alert.objects.filter(game__in=games).values_list("game_id", "kind"))


def _all_marks(games) -> list[tuple[int, str]]:
    return sorted((g.pk, kind) for g in games for kind in ("alert", "limit"))


@pytest.mark.django_db(transaction=True)
def test_every_mark_is_raised_exactly_once(backend):
    from games.tasks import clock_mark_due

    round_, games = _round(4)
    clock_start_round(round=round_)
    # Duplicate and early deliveries of the same task change nothing.
    for game in games:
        for _ in range(3):
            clock_mark_due.apply_async(args=[game.pk, "alert"])
            clock_mark_due.apply_async(args=[game.pk, "limit"], countdown=LIMIT_S + 0.5)
    _wait_for(lambda: len(_alerts(games)) == 8, 30, "8 alerts")
    time.sleep(2)  # more sweeps and the duplicate tasks have run by now
    assert _alerts(games) == _all_marks(games)
    assert set(
        Game.objects.filter(pk__in=[g.pk for g in games]).values_list("status", flat=True)
    ) == {"time_up"}
    for alert in Alert.objects.filter(game__in=games):
        assert alert.raised_at >= alert.due_at


@pytest.mark.django_db(transaction=True)
def test_pause_and_extension_move_the_marks_and_a_finished_game_raises_nothing(backend):
    round_, games = _round(3)
    paused, extended, finished = games
    judge = judge_of(round_.tournament)
    clock_start_round(round=round_)
    clock_extend(judge=JudgeAtGame(extended, judge), minutes=20, reason="Dommerkald")  # +2 s real
    clock_pause(judge=JudgeAtGame(paused, judge), reason="Dommerkald")
    clock_stop(game=finished)
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED)
    time.sleep(LIMIT_S + 1.5)
    assert _alerts([paused, finished]) == []
    clock_resume(judge=JudgeAtGame(paused, judge))
    _wait_for(lambda: len(_alerts([paused, extended])) == 4, 30, "the moved marks")
    time.sleep(1.5)
    assert _alerts(games) == _all_marks([paused, extended])
    for game in (paused, extended):
        clock = GameClock.objects.get(game=game)
        started = clock.started_at + datetime.timedelta(seconds=clock.paused_real_s)
        mark = Alert.objects.get(game=game, kind="alert")
        extra = 20 if game is extended else 0
        assert mark.due_at == started + datetime.timedelta(seconds=(50 + extra) * 60 / SPEED)
        assert mark.raised_at >= mark.due_at
    assert Alert.objects.get(game=paused, kind="alert").raised_at >= (
        round_.games.get(pk=paused.pk).started_at + datetime.timedelta(seconds=LIMIT_S + 1.5)
    )


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_before_the_mark_still_raises_once_after_restart(backend):
    round_, games = _round(2)
    clock_start_round(round=round_)
    time.sleep(0.5)  # the worker has taken the ETA tasks into memory
    backend.kill_worker()
    try:
        time.sleep(LIMIT_S + 1)
        assert _alerts(games) == []  # nobody ran: the marks are due but not raised
        assert (
            GameClock.objects.filter(game__in=games, limit_due_at__lte=timezone.now()).count() == 2
        )
    finally:
        backend.start_worker()
    _wait_for(lambda: len(_alerts(games)) == 4, 30, "the alerts after the restart")
    time.sleep(2)
    assert _alerts(games) == _all_marks(games)


@pytest.mark.django_db(transaction=True)
def test_a_redis_restart_around_the_mark_loses_no_alert(backend):
    round_, games = _round(2)
    clock_start_round(round=round_)
    time.sleep(MARK_S - 1.5)
    backend.stop_redis()  # every queued ETA task is gone with it (--save "")
    try:
        time.sleep(2.5)
        assert _alerts(games) == []  # past the alert mark, but no broker
    finally:
        backend.start_redis()

    def raised() -> bool:
        backend.supervise()
        return len(_alerts(games)) == 4

    _wait_for(raised, 60, "the alerts after the Redis restart")
    time.sleep(2)
    assert _alerts(games) == _all_marks(games)
