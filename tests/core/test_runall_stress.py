"""The embedded default survives the day: ``manage.py runall`` under a burst of
round starts, with its worker killed (SIGKILL) in the middle.

Exactly what ``make run`` starts: SQLite under a private ``VAR_DIR``, the
file-system broker (config/filebroker.py), runserver, a Celery worker and
beat, supervised (core/supervisor.py). Four organisers log in through the
login form and start round 1 of each of their tournaments as fast as the
server answers; clocks run fast, so every table reaches its alert and its
time limit within seconds. The worker is killed twice while the starts
arrive. Asserted: every start succeeded, every table got both alerts, the
worker was started again and the web server never stopped, no message was
half-read or set aside. Nothing here touches pytest's test database.
"""

from __future__ import annotations

import http.cookiejar
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
ORGANISERS = 4
TOURNAMENTS_EACH = 5
PAIRS = 8  # four tables per round
# Clock minutes per real minute: the 50-minute alert after 6.7 s, the limit after 8 s.
SPEED = 450.0

SETUP = f"""
import datetime
from django.contrib.auth import get_user_model
from tournament.models import Pair, Tournament
from competition.services.pairing import round_pair, round_publish
from tournament.services.registration import pair_check_in, pair_register, tournament_create

for o in range({ORGANISERS}):
    user = get_user_model().objects.create_user(f"org{{o}}", password="stress-pw")
    for t in range({TOURNAMENTS_EACH}):
        tournament = tournament_create(
            actor=user, name=f"Stress {{o}}-{{t}}", slug=f"stress-{{o}}-{{t}}",
            date=datetime.date(2026, 11, 28), swiss_rounds=3, published=True,
        )
        for p in range({PAIRS}):
            pair = pair_register(
                tournament=tournament, actor=user, player_1=f"A{{o}}{{t}}{{p}}",
                player_2=f"B{{o}}{{t}}{{p}}", seed=p + 1,
            )
            pair_check_in(pair=pair, actor=user)
        Tournament.objects.filter(pk=tournament.pk).update(clock_speed={SPEED})
        round_publish(round=round_pair(tournament=tournament, actor=user), actor=user)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> dict[str, int]:
    """runall's children by role (web/worker/beat), from /proc."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) != pid:
            continue
        for role, mark in (("web", "runserver"), ("worker", " worker "), ("beat", " beat ")):
            if mark in cmdline:
                found[role] = int(entry.name)
    return found


class Organiser:
    """A browser-less organiser: the login form, then POSTs with the CSRF token."""

    def __init__(self, base: str, username: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.get("/login/")
        status, _ = self.post("/login/", {"username": username, "password": "stress-pw"})
        assert status == 302, f"login of {username} answered {status}"

    def _csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def get(self, path: str) -> tuple[int, str]:
        with self.opener.open(self.base + path, timeout=60) as response:
            return response.status, response.read().decode()

    def post(self, path: str, data: dict[str, str]) -> tuple[int, str]:
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": self._csrf()}).encode()
        request = urllib.request.Request(
            self.base + path, data=body, headers={"Referer": self.base + path}
        )
        no_redirect = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )
        try:
            with no_redirect.open(request, timeout=60) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


def _wait(predicate, timeout: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.5)
    raise AssertionError(f"timed out after {timeout} s: {what}")


def _manage(env: dict[str, str], *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, f"manage.py {' '.join(args)} failed:\n{done.stderr[-4000:]}"


def test_round_start_bursts_and_a_killed_worker_lose_no_alert(tmp_path):
    var = tmp_path / "var"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "SITE_URL")
    }
    env.update(VAR_DIR=str(var), DJANGO_SETTINGS_MODULE="config.settings.local")
    _manage(env, "migrate", "--noinput")
    _manage(env, "shell", "-c", SETUP)

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    runall = subprocess.Popen(
        [sys.executable, "manage.py", "runall", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    output: list[str] = []
    reader = threading.Thread(target=lambda: output.extend(runall.stdout), daemon=True)
    reader.start()
    database = sqlite3.connect(var / "dmpartners.sqlite3", timeout=20)
    try:
        _wait(lambda: _up(base), 60, "the web server to answer")
        _wait(lambda: {"web", "worker", "beat"} <= set(_children(runall.pid)), 30, "children")
        web_pid = _children(runall.pid)["web"]
        organisers = [Organiser(base, f"org{o}") for o in range(ORGANISERS)]

        answers: list[tuple[str, int, str]] = []
        started = threading.Barrier(ORGANISERS + 1)

        def burst(o: int) -> None:
            started.wait()
            for t in range(TOURNAMENTS_EACH):
                path = f"/organise/stress-{o}-{t}/rounds/1/start/"
                status, _ = organisers[o].post(path, {})
                answers.append((path, status, ""))

        threads = [threading.Thread(target=burst, args=(o,)) for o in range(ORGANISERS)]
        for thread in threads:
            thread.start()
        started.wait()
        killed = []
        for delay in (0.3, 4.0):  # once early in the burst, once while marks fall due
            time.sleep(delay)
            worker = _children(runall.pid).get("worker")
            if worker:
                os.kill(worker, signal.SIGKILL)
                killed.append(worker)
            _wait(lambda: "worker" in _children(runall.pid), 30, "the worker to come back")
        for thread in threads:
            thread.join(timeout=120)

        tables = ORGANISERS * TOURNAMENTS_EACH * PAIRS // 2
        assert len(answers) == ORGANISERS * TOURNAMENTS_EACH
        assert all(status == 302 for _, status, _ in answers), answers
        in_progress = database.execute(
            "SELECT count(*) FROM tournament_round WHERE status = 'in_progress'"
        ).fetchone()[0]
        assert in_progress == ORGANISERS * TOURNAMENTS_EACH

        def alerts() -> int:
            return database.execute("SELECT count(*) FROM judging_alert").fetchone()[0]

        _wait(lambda: alerts() == 2 * tables, 120, f"{2 * tables} alerts (have {alerts()})")
        kinds = dict(database.execute("SELECT kind, count(*) FROM judging_alert GROUP BY kind"))
        assert kinds == {"alert": tables, "limit": tables}
        time_up = database.execute(
            "SELECT count(*) FROM games_game WHERE status = 'time_up'"
        ).fetchone()[0]
        assert time_up == tables

        assert len(killed) == 2
        assert _children(runall.pid)["web"] == web_pid  # never restarted, never down
        assert runall.poll() is None
        assert _up(base)
        log = "".join(output)
        assert log.count("worker stopped (killed by SIGKILL)") == 2, log
        assert log.count("worker started again") == 2, log
        worker_log = (var / "logs" / "worker.log").read_text()
        assert "Unrecoverable error" not in worker_log
        assert "JSONDecodeError" not in worker_log
        assert not list((var / "celery" / "rejected").glob("*"))
        # What the killed workers had taken went back to the queue.
        for pid in killed:
            assert not (var / "celery" / "claimed" / str(pid)).exists()
    finally:
        database.close()
        runall.send_signal(signal.SIGINT)
        try:
            runall.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(runall.pid, signal.SIGKILL)
            runall.wait()
    assert runall.returncode == 0
    assert not _children(runall.pid)


def _up(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/health/", timeout=5) as response:
            return response.status in (200, 503)
    except urllib.error.HTTPError as error:
        return error.code == 503
    except OSError:
        return False
