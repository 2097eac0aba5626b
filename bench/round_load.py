#!/usr/bin/env python
"""Load and fault harness: one whole round on PostgreSQL + Redis + gunicorn + Celery.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_round \\
    .venv/bin/python bench/round_load.py --quick            # ~60 s, what CI-size machines run
    .venv/bin/python bench/round_load.py --tables 100 --pollers 400 --judges 5 --minutes 10

What it does (docs/operations.md, "Load and fault harness"):

1. Drops and recreates the database named in ``DATABASE_URL`` (it must serve
   nothing else), starts a PRIVATE ``redis-server`` on ``--redis-port``
   (never the shared one), migrates, and creates a tournament with one round
   of ``--tables`` games whose clocks run fast (``clock_speed``) so the 50-
   and 60-minute marks fall inside the run.
2. Starts gunicorn (gthread), a Celery worker and Celery beat against them.
3. Runs asyncio clients, all to 127.0.0.1 only, each doing what the page's
   own scripts do (static/js, same intervals): one table device per table
   replaying a self-play game through ``POST /api/table/<token>/entries/``
   every ``--think`` seconds (a retry after a connection error or 5xx
   re-sends the same ``client_id`` and ``expected_seq``; the answer's
   ``state_etag`` makes its next state poll a 304) while polling its state
   (``?tail=20``, 5 s), its judge call (5 s) and its clock (15 s); ``--pollers``
   spectators split by ``SPECTATOR_MIX`` over the public pages (fragment
   every 20 s), one live table each (state every 3 s, clock 15 s) and the
   hall screen (hall API every 10 s plus whatever clocks the page asks for);
   ``--judges`` judge dashboards (dashboard every 1 s, calls every 2 s) with
   a session. Conditional GETs send the last ETag, as a browser does.
4. Injects faults at fixed fractions of the run (``--no-faults`` to skip):
   PostgreSQL "restart" (every backend of the bench database terminated
   with ``pg_terminate_backend`` — what a restart does to the application;
   the shared cluster is never restarted), a real restart of the private
   Redis, ``kill -9`` of one gunicorn worker, ``kill -9`` of the Celery
   worker and a fresh start.
5. Compares what the clients were told was accepted with the database:
   lost and duplicated entries, broken hash chains; and every game whose
   clock passed 50/60 minutes must have exactly one alert of each kind.

Prints one JSON document (also written to ``var/bench/round_load.json``):
p50/p99/max per endpoint as the clients saw it and as gunicorn measured it
(its access log), request and error counts (errors inside a fault
window counted apart), lost/duplicated, alert check. A benchmark, not a
test: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from typing import Any

import harness
from harness import (
    children,
    cpu_seconds,
    machine_busy_seconds,
    percentile,
    recreate_database,
    stop,
    terminate_backends,
)

ROOT = harness.ROOT
VAR = harness.VAR
SLUG = "bench-round"
ACCESS_LOG = VAR / "round_load_access.log"
GUNICORN_LOG = VAR / "round_load-gunicorn.log"
FAULT_WINDOW_S = 10.0
SLOW_MS = 250.0  # errors this soon after a fault are counted as caused by it


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--pollers", type=int, default=400)
    parser.add_argument("--judges", type=int, default=5)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--quick", action="store_true", help="a 60-second run")
    parser.add_argument("--think", type=float, default=3.0, help="seconds between a table's moves")
    parser.add_argument(
        "--ramp",
        type=float,
        default=None,
        help="seconds over which clients arrive (default 30; 15 with --quick)",
    )
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument(
        "--worker-class",
        default="gthread",
        choices=("gthread", "sync"),
        help="gunicorn worker type",
    )
    parser.add_argument("--threads", type=int, default=2, help="threads per gunicorn worker")
    parser.add_argument("--redis-port", type=int, default=6391)
    parser.add_argument("--connections", type=int, default=200, help="client connection pool")
    parser.add_argument("--no-faults", action="store_true")
    parser.add_argument(
        "--worker-nice", type=int, default=10, help="CPU niceness of the Celery worker (0: none)"
    )
    args = parser.parse_args()
    if args.quick:
        args.minutes = 1.0
    if args.ramp is None:
        args.ramp = 15.0 if args.quick else 30.0
    return args


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


# --- data ------------------------------------------------------------------------


def setup_data(args: argparse.Namespace) -> dict[str, Any]:
    """Migrate, create the round, start its clocks. Runs in this process (Django)."""
    import datetime

    import django
    from django.core.management import call_command

    django.setup()
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    from games.engine import selfplay_game
    from games.models import Game
    from games.services.clock import clock_start_round
    from games.services.tokens import game_token
    from tournament.models import Pair, Player, Round, Tournament, TournamentRole

    call_command("migrate", verbosity=0)
    # 60 clock minutes pass at 85 % of the run: both marks fall inside it.
    speed = 60.0 / (0.85 * args.minutes)
    tournament = Tournament.objects.create(
        name="Bench round",
        slug=SLUG,
        date=datetime.date.today(),
        clock_speed=speed,
        published=True,
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.PUBLISHED)
    tables = []
    for n in range(args.tables):
        pairs = []
        for k in range(2):
            a = Player.objects.create(tournament=tournament, name=f"P{n}-{k}a")
            b = Player.objects.create(tournament=tournament, name=f"P{n}-{k}b")
            pairs.append(
                Pair.objects.create(
                    tournament=tournament,
                    start_number=2 * n + k + 1,
                    player_1=a,
                    player_2=b,
                    status="checked_in",
                )
            )
        game = Game.objects.create(
            round=round_,
            table_number=n + 1,
            pair_yb=pairs[0],
            pair_rg=pairs[1],
            first_dealer="YRBG"[n % 4],
        )
        record = selfplay_game(5000 + n, first_dealer=game.first_dealer)
        tables.append({"game": game.pk, "token": game_token(game=game), "moves": record["moves"]})
    users = []
    for j in range(args.judges):
        user = get_user_model().objects.create(username=f"bench-judge-{j}")
        TournamentRole.objects.create(tournament=tournament, user=user, role="judge")
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        users.append(session.session_key)
    clock_start_round(round=round_)
    from django.db import connection

    connection.close()
    return {"tables": tables, "sessions": users, "speed": speed}


def verify(accepted: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    """Compare the clients' accepted entries with the database, and check alerts."""
    from django.db import connection
    from django.utils import timezone

    connection.close()  # the fault may have killed this process's connection
    from games.models import Game, GameClock, MoveEntry
    from games.selectors import move_log_verify
    from games.services.clock import clock_elapsed_s, clock_marks_s
    from judging.models import Alert

    lost = duplicated = unacknowledged = chain_errors = 0
    stored: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for row in MoveEntry.objects.filter(
        game__round__tournament__slug=SLUG, withdrawn_at__isnull=True
    ).values_list("game_id", "client_id", "seq"):
        stored[row[0]].append((row[1], row[2]))
    for game in Game.objects.filter(round__tournament__slug=SLUG):
        mine = accepted.get(game.pk, [])
        db_ids = [client_id for client_id, _seq in stored.get(game.pk, [])]
        acked = [a["client_id"] for a in mine]
        lost += len(set(acked) - set(db_ids))
        unacknowledged += len(set(db_ids) - set(acked))
        created = [a["client_id"] for a in mine if a["created"]]
        duplicated += len(created) - len(set(created))
        # The same move under two sequence numbers would show as texts repeating
        # out of the game's order: the chain check and the engine replay catch it.
        duplicated += len(db_ids) - len(set(db_ids))
        if not move_log_verify(game=game)["ok"]:
            chain_errors += 1
    now = timezone.now()
    alerts = defaultdict(int)
    late: list[float] = []
    dues: list[float] = []
    for game_id, kind, due, raised in Alert.objects.filter(tournament__slug=SLUG).values_list(
        "game_id", "kind", "due_at", "raised_at"
    ):
        alerts[(game_id, kind)] += 1
        late.append((raised - due).total_seconds())
        dues.append(due.timestamp())
    expected = missing = extra = 0
    for clock in GameClock.objects.filter(game__round__tournament__slug=SLUG):
        elapsed = clock_elapsed_s(clock, now)
        for kind, mark in zip(("alert", "limit"), clock_marks_s(clock), strict=True):
            # A sweep runs every second: a mark passed 5 s ago must have its row.
            due = elapsed - mark > 5 * clock.speed
            count = alerts.get((clock.game_id, kind), 0)
            if due:
                expected += 1
                missing += count == 0
                extra += max(0, count - 1)
            elif elapsed < mark:
                extra += count
    return {
        "accepted": sum(len(v) for v in accepted.values()),
        "stored_active": sum(len(v) for v in stored.values()),
        "lost": lost,
        "duplicated": duplicated,
        "stored_but_never_acknowledged": unacknowledged,
        "chain_errors": chain_errors,
        "alerts_expected": expected,
        "alerts_raised": sum(alerts.values()),
        "alerts_missing": missing,
        "alerts_extra_or_duplicated": extra,
        # Real seconds from a mark being due to its alert row (the clock runs fast,
        # the alert path does not).
        "alert_latency_s": {
            "p50": round(statistics.median(late), 2) if late else None,
            "p99": round(percentile(late, 0.99), 2),
            "max": round(max(late), 2) if late else None,
        },
        "_alert_due_times": dues,
    }


# --- clients -------------------------------------------------------------------


class Stats:
    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = defaultdict(list)
        # Requests sent once every client has arrived (after the ramp).
        self.steady: dict[str, list[float]] = defaultdict(list)
        self.steady_from = 0.0
        # Second of the run -> requests slower than SLOW_MS sent in it (when do stalls happen?).
        self.slow: dict[int, int] = defaultdict(int)
        self.errors: dict[str, int] = defaultdict(int)
        self.fault_errors: dict[str, int] = defaultdict(int)
        self.retries = 0
        self.faults: list[tuple[float, str]] = []
        self.start = time.monotonic()
        # (wall-clock second sent, endpoint, ms) of every answered request, to
        # tell apart the quiet stretches from the fault windows and alert waves.
        self.samples: list[tuple[float, str, float]] = []

    def record(self, endpoint: str, started: float) -> None:
        """``started`` is the request's ``time.perf_counter()`` at sending."""
        elapsed = time.perf_counter() - started
        self.latency[endpoint].append(elapsed * 1000)
        sent = time.monotonic() - elapsed
        self.samples.append((time.time() - elapsed, endpoint, elapsed * 1000))
        if sent >= self.steady_from:
            self.steady[endpoint].append(elapsed * 1000)
        if elapsed * 1000 > SLOW_MS:
            self.slow[int(sent - self.start)] += 1

    def error(self, endpoint: str) -> None:
        now = time.monotonic()
        if any(0 <= now - at <= FAULT_WINDOW_S for at, _name in self.faults):
            self.fault_errors[endpoint] += 1
        else:
            self.errors[endpoint] += 1


async def request(
    session: Any, stats: Stats, endpoint: str, method: str, url: str, **kwargs: Any
) -> tuple[int, Any]:
    import aiohttp

    started = time.perf_counter()
    try:
        async with session.request(method, url, **kwargs) as res:
            body = await res.read()
            status = res.status
    except (TimeoutError, aiohttp.ClientError, OSError):
        stats.error(endpoint)
        return 0, None
    stats.record(endpoint, started)
    if status >= 500:
        stats.error(endpoint)
    try:
        return status, json.loads(body) if body[:1] in (b"{", b"[") else None
    except ValueError:
        return status, None


async def table_client(
    session: Any,
    base: str,
    table: dict[str, Any],
    stats: Stats,
    accepted: list[dict[str, Any]],
    deadline: float,
    think: float,
    rng: random.Random,
    arrive: float,
    seen: Conditional,
) -> None:
    """Posts the table's entries as table.js does: a submission's answer brings
    the legal moves and the ETag of the state the device polls (``state_etag``),
    so the device reads its state again only if the answer has none."""
    url = f"{base}/api/table/{table['token']}/entries/"
    state_url = table_state_url(base, table["token"])
    await asyncio.sleep(arrive + rng.random() * think)
    for index, text in enumerate(table["moves"]):
        if time.monotonic() > deadline:
            return
        body = {
            "text": text,
            "client_id": f"rl-{table['game']}-{index:04d}",
            "expected_seq": len(accepted),
            "lang": "en",
        }
        give_up = time.monotonic() + 60
        while True:
            status, answer = await request(
                session, stats, "POST table entry", "POST", url, json=body
            )
            if status in (200, 201):
                accepted.append(
                    {
                        "client_id": body["client_id"],
                        "created": status == 201,
                        "seq": answer["entry"]["seq"],
                    }
                )
                if answer.get("state_etag") and answer["state"].get("legal_entries") is not None:
                    seen.etags[state_url] = answer["state_etag"]
                else:
                    seen.etags.pop(state_url, None)
                    await seen.get(session, stats, "GET table state", state_url)
                break
            if (
                status == 409
                and answer
                and answer["error"]["code"] in ("game_time_up", "game_finished")
            ):
                return  # the clock ran out (fast clock): the table stops, as in a hall
            if status in (0, 500, 502, 503, 504) and time.monotonic() < give_up:
                stats.retries += 1
                await asyncio.sleep(0.5 + rng.random())
                continue
            stats.error("POST table entry")
            return  # an answer the table cannot continue from: counted, table stops
        await asyncio.sleep(think * (0.5 + rng.random()))


def table_state_url(base: str, token: str) -> str:
    # The table page polls the last 20 entries (games.views.table_page).
    return f"{base}/api/table/{token}/state/?tail=20"


class Conditional:
    """What a browser keeps for conditional GETs: the last ETag per URL."""

    def __init__(self) -> None:
        self.etags: dict[str, str] = {}

    async def get(
        self,
        session: Any,
        stats: Stats,
        endpoint: str,
        url: str,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        sent = dict(headers or {})
        if url in self.etags:
            sent["If-None-Match"] = self.etags[url]
        status, body, etag = await request_etag(session, stats, endpoint, url, headers=sent)
        if status == 200 and etag:
            self.etags[url] = etag
        if 0 < status < 500 and status not in (200, 304):
            stats.error(endpoint)
        return status, body


async def request_etag(
    session: Any, stats: Stats, endpoint: str, url: str, headers: dict[str, str]
) -> tuple[int, Any, str | None]:
    import aiohttp

    started = time.perf_counter()
    try:
        async with session.get(url, headers=headers) as res:
            body = await res.read()
            status, etag = res.status, res.headers.get("ETag")
    except (TimeoutError, aiohttp.ClientError, OSError):
        stats.error(endpoint)
        return 0, None, None
    stats.record(endpoint, started)
    if status >= 500:
        stats.error(endpoint)
    return status, body, etag


async def every(
    deadline: float, interval: float, rng: random.Random, action: Any, *, first: bool = True
) -> None:
    """Run ``action`` every ``interval`` seconds (a browser's setInterval) until ``deadline``."""
    await asyncio.sleep(rng.random() * interval)
    if first:
        await action()
    while time.monotonic() + interval < deadline:
        await asyncio.sleep(interval)
        await action()


async def table_device(
    session: Any,
    base: str,
    table: dict[str, Any],
    stats: Stats,
    deadline: float,
    arrive: float,
    seen: Conditional,
) -> None:
    """What the table page's scripts read besides the entries it posts (static/js):
    its state every 5 s (table.js, conditional), its judge call every 5 s
    (judge_call.js) and its clock every 15 s (clock.js)."""
    rng = random.Random(table["game"] * 7)
    token = table["token"]
    await asyncio.sleep(arrive)
    await request(session, stats, "GET table page", "GET", f"{base}/t/{token}/")
    state_url = table_state_url(base, token)
    calls_url = f"{base}/api/table/{token}/judge/"
    clock_url = f"{base}/api/games/{table['game']}/clock/"
    await asyncio.gather(
        every(deadline, 5, rng, lambda: seen.get(session, stats, "GET table state", state_url)),
        every(deadline, 5, rng, lambda: seen.get(session, stats, "GET table call", calls_url)),
        every(deadline, 15, rng, lambda: seen.get(session, stats, "GET clock", clock_url)),
    )


SPECTATOR_MIX = (("pages", 0.5), ("live", 0.3), ("hall", 0.2))
"""How the ``--pollers`` spectators divide: public pages (home, pairings,
standings: the page, then its fragment every 20 s as autorefresh.js does),
one live table (state every 3 s as live.js does, its clock every 15 s) and
the hall screen (the hall API every 10 s, and every clock the page asks
clock.js to sync, every 15 s)."""

_CLOCK_URL = re.compile(r'data-clock-url="([^"]+)"')


async def spectator(
    session: Any,
    base: str,
    role: str,
    tables: int,
    stats: Stats,
    deadline: float,
    rng: random.Random,
    ramp: float,
) -> None:
    seen = Conditional()
    await asyncio.sleep(rng.random() * ramp)
    if role == "pages":
        name, path = rng.choice(
            [
                ("pairings", f"/tournaments/{SLUG}/rounds/1/"),
                ("standings", f"/tournaments/{SLUG}/standings/"),
                ("home", f"/tournaments/{SLUG}/"),
            ]
        )
        await seen.get(session, stats, f"GET {name} page", base + path)
        fragment = f"{base}{path}?fragment=1"
        await every(
            deadline,
            20,
            rng,
            lambda: seen.get(
                session, stats, f"GET {name} fragment", fragment, {"X-Requested-With": "fetch"}
            ),
            first=False,
        )
    elif role == "live":
        table = rng.randrange(1, tables + 1)
        page = f"{base}/tournaments/{SLUG}/rounds/1/tables/{table}/"
        _status, body = await seen.get(session, stats, "GET live page", page)
        game_id = _GAME_ID.search(body.decode() if isinstance(body, bytes) else "")
        if game_id is None:
            return
        state = f"{base}/api/games/{game_id[1]}/state/{game_id[2] or ''}"
        clock = f"{base}/api/games/{game_id[1]}/clock/"
        await asyncio.gather(
            every(deadline, 3, rng, lambda: seen.get(session, stats, "GET live state", state)),
            every(deadline, 15, rng, lambda: seen.get(session, stats, "GET clock", clock)),
        )
    else:
        _status, body = await seen.get(
            session, stats, "GET hall page", f"{base}/tournaments/{SLUG}/hall/"
        )
        clocks = _CLOCK_URL.findall(body.decode() if isinstance(body, bytes) else "")
        hall_api = f"{base}/api/tournaments/{SLUG}/hall/"
        await asyncio.gather(
            every(deadline, 10, rng, lambda: seen.get(session, stats, "GET hall API", hall_api)),
            *(
                every(
                    deadline,
                    15,
                    rng,
                    lambda url=url: seen.get(session, stats, "GET clock", base + url),
                )
                for url in clocks
            ),
        )


_GAME_ID = re.compile(r"/api/games/(\d+)/state/(\?tail=\d+)?")


async def judge(
    session: Any, base: str, session_key: str, stats: Stats, deadline: float, rng: random.Random
) -> None:
    """A judge dashboard: the dashboard every second (judge_dashboard.js) and the
    open calls every 2 s (judge_calls.js)."""
    headers = {"Cookie": f"sessionid={session_key}", "Accept": "application/json"}
    seen = Conditional()
    dashboard = f"{base}/api/tournaments/{SLUG}/judge/dashboard/"
    calls = f"{base}/api/tournaments/{SLUG}/judge/calls/"
    await asyncio.gather(
        every(
            deadline,
            1,
            rng,
            lambda: seen.get(session, stats, "GET judge dashboard API", dashboard, headers),
        ),
        every(
            deadline,
            2,
            rng,
            lambda: seen.get(session, stats, "GET judge calls API", calls, headers),
        ),
    )


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


# --- main ------------------------------------------------------------------------


async def loop_lag(deadline: float, lag: list[float]) -> None:
    """Every 50 ms: how much later than asked the event loop woke up (ms)."""
    while time.monotonic() < deadline:
        asked = time.perf_counter()
        await asyncio.sleep(0.05)
        lag.append((time.perf_counter() - asked - 0.05) * 1000)


async def run_load(args: argparse.Namespace, procs: Processes, data: dict[str, Any]) -> dict:
    import aiohttp

    base = f"http://127.0.0.1:{procs.port}"
    duration = args.minutes * 60
    stats = Stats()
    deadline = stats.start + duration
    accepted: dict[int, list[dict[str, Any]]] = {t["game"]: [] for t in data["tables"]}
    connector = aiohttp.TCPConnector(limit=args.connections, keepalive_timeout=1.5)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        rng = random.Random(2026)
        # Tables sit down and phones open pages over the first --ramp seconds.
        arrivals = {t["game"]: rng.random() * args.ramp for t in data["tables"]}
        stats.steady_from = stats.start + args.ramp
        # One page per table: its posts and its polls share the ETags it keeps.
        pages = {t["game"]: Conditional() for t in data["tables"]}
        tasks = [
            asyncio.create_task(
                table_client(
                    session,
                    base,
                    t,
                    stats,
                    accepted[t["game"]],
                    deadline,
                    args.think,
                    random.Random(t["game"]),
                    arrivals[t["game"]],
                    pages[t["game"]],
                )
            )
            for t in data["tables"]
        ]
        tasks += [
            asyncio.create_task(
                table_device(
                    session, base, t, stats, deadline, arrivals[t["game"]], pages[t["game"]]
                )
            )
            for t in data["tables"]
        ]
        roles = [role for role, share in SPECTATOR_MIX for _ in range(round(share * args.pollers))]
        tasks += [
            asyncio.create_task(
                spectator(
                    session,
                    base,
                    role,
                    len(data["tables"]),
                    stats,
                    deadline,
                    random.Random(rng.random()),
                    args.ramp,
                )
            )
            for role in roles
        ]
        tasks += [
            asyncio.create_task(
                judge(session, base, key, stats, deadline, random.Random(rng.random()))
            )
            for key in data["sessions"]
        ]
        lag: list[float] = []
        tasks.append(asyncio.create_task(loop_lag(deadline, lag)))
        faults = [] if args.no_faults else await inject_faults(procs, stats, duration)
        await asyncio.gather(*tasks)

    def summary(latencies: dict[str, list[float]], with_errors: bool) -> dict[str, Any]:
        out = {}
        for name, values in sorted(latencies.items()):
            row: dict[str, Any] = {
                "requests": len(values),
                "p50_ms": round(statistics.median(values), 1) if values else None,
                "p99_ms": round(percentile(values, 0.99), 1),
                "max_ms": round(max(values), 1) if values else None,
            }
            if with_errors:
                row["errors"] = stats.errors.get(name, 0)
                row["errors_in_fault_windows"] = stats.fault_errors.get(name, 0)
            out[name] = row
        return out

    endpoints = summary(stats.latency, True)
    steady = summary(stats.steady, False)
    return {
        "endpoints": endpoints,
        "endpoints_after_ramp": steady,
        "slow_requests_by_second": dict(sorted(stats.slow.items())),
        # How late the load tool's own event loop woke up (it shares the cores):
        # part of every client-side latency above, not the server's.
        "load_tool_loop_lag_ms": {
            "p50": round(statistics.median(lag), 1) if lag else None,
            "p99": round(percentile(lag, 0.99), 1),
            "max": round(max(lag), 1) if lag else None,
        },
        "faults": faults,
        "retries": stats.retries,
        "accepted": accepted,
        "elapsed_s": round(time.monotonic() - stats.start, 1),
        "_quiet": (stats.samples, wall(stats.steady_from), [wall(at) for at, _n in stats.faults]),
    }


def wall(monotonic: float) -> float:
    """A ``time.monotonic()`` instant of this run as wall-clock seconds."""
    return time.time() - (time.monotonic() - monotonic)


_ENDPOINTS = [
    ("POST", re.compile(r"^/api/table/[^/]+/entries/$"), "POST table entry"),
    ("GET", re.compile(r"^/api/table/[^/]+/state/$"), "GET table state"),
    ("GET", re.compile(r"^/api/table/[^/]+/judge/$"), "GET table call"),
    ("GET", re.compile(r"^/t/[^/]+/$"), "GET table page"),
    ("GET", re.compile(r"^/api/games/\d+/clock/$"), "GET clock"),
    ("GET", re.compile(r"^/api/games/\d+/state/$"), "GET live state"),
    ("GET", re.compile(r"^/tournaments/[^/]+/rounds/\d+/tables/\d+/$"), "GET live page"),
    ("GET", re.compile(r"^/tournaments/[^/]+/hall/$"), "GET hall page"),
    ("GET", re.compile(r"^/api/tournaments/[^/]+/hall/$"), "GET hall API"),
    ("GET", re.compile(r"^/api/tournaments/[^/]+/judge/dashboard/$"), "GET judge dashboard API"),
    ("GET", re.compile(r"^/api/tournaments/[^/]+/judge/calls/$"), "GET judge calls API"),
    ("GET", re.compile(r"^/tournaments/[^/]+/(rounds/\d+/|standings/)?$"), "GET public pages"),
]


def server_side() -> dict[str, Any]:
    """p50/p99 of gunicorn's own time per endpoint (its access log; pages
    answered by the public fast path are included: they never reach Django),
    and a timeline: per second of the run, requests answered, the server time
    they took (ms, summed over threads) and the endpoint that took most of it."""
    times: dict[str, list[float]] = defaultdict(list)
    per_second: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    counts: dict[int, int] = defaultdict(int)
    if not ACCESS_LOG.exists():
        return {}
    first = None
    for line in ACCESS_LOG.read_text().splitlines():
        parts = line.split(" ", 5)
        if len(parts) != 6:
            continue
        method, path, _status, micros, _pid, stamp = parts
        name = next((n for m, rx, n in _ENDPOINTS if m == method and rx.match(path)), "other")
        ms = int(micros) / 1000
        times[name].append(ms)
        try:
            at = time.mktime(time.strptime(stamp.strip("[]").split()[0], "%d/%b/%Y:%H:%M:%S"))
        except ValueError:
            continue
        first = at if first is None else min(first, at)
        second = int(at - first)
        per_second[second][name] += ms
        counts[second] += 1
    timeline = {
        second: [
            counts[second],
            round(sum(work.values())),
            max(work, key=lambda n: work[n]),
        ]
        for second, work in sorted(per_second.items())
    }
    return {"endpoints": p50_p99(times), "timeline": timeline}


def p50_p99(latencies: dict[str, list[float]]) -> dict[str, dict[str, Any]]:
    """Requests, p50 and p99 (ms) per endpoint."""
    return {
        name: {
            "requests": len(values),
            "p50_ms": round(statistics.median(values), 1),
            "p99_ms": round(percentile(values, 0.99), 1),
        }
        for name, values in sorted(latencies.items())
        if values
    }


QUIET_MARGIN_S = 5.0


def quiet_latencies(
    samples: list[tuple[float, str, float]],
    steady_from: float,
    fault_times: list[float],
    alert_dues: list[float],
) -> dict[str, Any]:
    """Client p50/p99 per endpoint for requests sent after the ramp, outside the
    10 s after each fault and outside the alert waves (from the first to the
    last due time of alerts due within a second of each other, 5 s either side)."""
    waves: list[list[float]] = []
    for due in sorted(alert_dues):
        if waves and due - waves[-1][1] <= 1.0:
            waves[-1][1] = due
        else:
            waves.append([due, due])
    windows = [(at, at + FAULT_WINDOW_S) for at in fault_times]
    windows += [(a - QUIET_MARGIN_S, b + QUIET_MARGIN_S) for a, b in waves]
    per: dict[str, list[float]] = defaultdict(list)
    for sent, endpoint, ms in samples:
        if sent >= steady_from and not any(a <= sent <= b for a, b in windows):
            per[endpoint].append(ms)
    return {
        "excluded_windows_s": round(sum(b - a for a, b in windows), 1),
        "endpoints": p50_p99(per),
    }


_GC_PAUSE = re.compile(r"gc pause ([\d.]+) ms generation (\d)")


def gc_pauses() -> dict[str, Any]:
    """Garbage-collector pauses of 10 ms and more in the web processes (their log)."""
    pauses = (
        [
            (float(m[1]), m[2])
            for m in map(_GC_PAUSE.search, GUNICORN_LOG.read_text(errors="replace").splitlines())
            if m
        ]
        if GUNICORN_LOG.exists()
        else []
    )
    ms = [p for p, _gen in pauses]
    return {
        "count": len(ms),
        "by_generation": {g: sum(1 for _p, gen in pauses if gen == g) for g in "012"},
        "p50_ms": round(statistics.median(ms), 1) if ms else None,
        "max_ms": round(max(ms), 1) if ms else None,
        "total_ms": round(sum(ms)),
    }


def main() -> None:
    args = parse_args()
    env = environment(args)
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    recreate_database(env["DATABASE_URL"])
    port = harness.free_port()
    procs = Processes(env, args, port)
    try:
        procs.redis = start_redis(args.redis_port)
        data = setup_data(args)
        ACCESS_LOG.unlink(missing_ok=True)
        GUNICORN_LOG.unlink(missing_ok=True)
        procs.gunicorn = start_gunicorn(env, args, port)
        procs.worker = start_worker(env, args.worker_nice)
        procs.beat = start_beat(env)
        time.sleep(3)  # let the worker connect before the clock matters
        cpu_before, busy_before = cpu_by_part(procs), machine_busy_seconds()
        load = asyncio.run(run_load(args, procs, data))
        cpu_after, busy_after = cpu_by_part(procs), machine_busy_seconds()
        # Killed processes (faults) take their CPU time with them: a lower bound then.
        load["cpu_seconds"] = {
            name: round(max(0.0, cpu_after[name] - cpu_before.get(name, 0.0)), 1)
            for name in cpu_after
        }
        load["cpu_seconds"]["machine_busy"] = round(busy_after - busy_before, 1)
        time.sleep(6)  # the sweep's last passes
        checks = verify(load.pop("accepted"))
        samples, steady_from, fault_times = load.pop("_quiet")
        load["endpoints_quiet"] = quiet_latencies(
            samples, steady_from, fault_times, checks.pop("_alert_due_times")
        )
    finally:
        for proc in procs.all():
            stop(proc)
    report = {
        "setup": {
            "tables": args.tables,
            "pollers": args.pollers,
            "judges": args.judges,
            "minutes": args.minutes,
            "think_s": args.think,
            "ramp_s": args.ramp,
            "spectators": {role: round(share * args.pollers) for role, share in SPECTATOR_MIX},
            "clock_speed": round(data["speed"], 2),
            "gunicorn": f"{args.workers} workers x {args.threads} threads ({args.worker_class})"
            if args.worker_class == "gthread"
            else f"{args.workers} sync workers",
            "worker_nice": args.worker_nice,
            "cpu_count": os.cpu_count(),
        },
        **load,
        "server_side": server_side(),
        "gc_pauses_10ms_or_more": gc_pauses(),
        "checks": checks,
    }
    harness.emit(report, indent=1, keep_as="round_load.json")


if __name__ == "__main__":
    main()
