#!/usr/bin/env python
"""Load benchmark: spectators' polls answered from shared copies, beside a bare Django view.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_poll \\
    REDIS_URL=redis://127.0.0.1:6379/3 .venv/bin/python bench/poll_load.py \\
    [--tables 30] [--moves 30] [--duration 6] [--rounds 2] [--connections 32]

Steps: (re)create the PostgreSQL database named in DATABASE_URL (used for
nothing else: it is dropped first) and empty the Redis database named in
REDIS_URL (the same: used for nothing else), migrate, create a published event with one
round in progress of ``--tables`` tables and log ``--moves`` entries on table 1
through the move log, start gunicorn in the production layout (gthread,
``--workers`` × ``--threads``) with ``bench/poll_settings.py`` (production
plus one bench-only bare view), and load, one after the other and
``--rounds`` times over, for ``--duration`` seconds each:

* ``bare_state`` / ``bare_hall``: a Django view returning the very bytes of the
  live state / the hall answer through the whole middleware stack, doing
  nothing else (``/bench/bare/<name>/``, bench/poll_urls.py);
* ``copy_state_200`` / ``copy_state_304``: the live state as ``live.js`` polls
  it (``/api/games/<id>/state/?tail=20``), without and with its ETag;
* ``copy_hall_200`` / ``copy_hall_304``: the hall answer, likewise;
* ``django_state`` / ``django_state_304``: the same state through the view
  (``&legal=0`` sends it past the shared copy: what every poll cost before).

Each scenario runs right after the bare view of the same bytes (``PAIRS``), and
its ratio to that run is reported per pair: the machine may be shared, and a
pair meets the same load. Afterwards the same scenarios are timed in one
process calling the WSGI application directly (the application's CPU per
request, without gunicorn's share, which is the same for all).

Each scenario reports requests/s, latency p50/p99, statuses, gunicorn's CPU
per request (its processes' user+system time over the requests: the load
generator shares the cores, so this is the figure that does not depend on
it), the scans of the application's tables PostgreSQL counted meanwhile, and the ratios to
the bare view of the same bytes. Load average before and after. The load
generator is asyncio over raw keep-alive sockets in ``--clients`` processes.
Traffic goes only to 127.0.0.1. A benchmark, not a test: target ≥ 1.0× the
bare view's requests/s for every copy scenario.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import time
import urllib.error
import urllib.request
from typing import Any

import harness

KEEP_AS = "poll_load.json"
BARE_DIR = harness.VAR / "poll_bare"
SLUG = "bench-poll"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--moves", type=int, default=30, help="entries logged on table 1")
    parser.add_argument("--duration", type=float, default=6.0, help="seconds per scenario")
    parser.add_argument("--rounds", type=int, default=2, help="times every scenario runs")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--clients", type=int, default=2, help="load generator processes")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    return parser.parse_args()


def environment() -> dict[str, str]:
    if not os.environ.get("REDIS_URL"):
        raise SystemExit("set REDIS_URL: the shared copies live in the shared cache")
    return harness.production_environment(
        harness.postgres_url(),
        DJANGO_SETTINGS_MODULE="bench.poll_settings",
        POLL_BARE_DIR=str(BARE_DIR),
    )


SETUP_SCRIPT = """
import datetime, json, sys, django
django.setup()
from games.engine import selfplay_game
from games.models import Game
from games.services.move_log import move_submit
from tournament.models import Pair, Player, Round, Tournament
args = json.load(sys.stdin)
t = Tournament.objects.create(name="Bench poll", slug=args["slug"], published=True,
                              date=datetime.date(2026, 11, 28))
r = Round.objects.create(tournament=t, number=1, status=Round.Status.IN_PROGRESS)
games = []
for n in range(args["tables"]):
    pairs = []
    for k in range(2):
        a = Player.objects.create(tournament=t, name=f"Spiller {n}-{k}a")
        b = Player.objects.create(tournament=t, name=f"Spiller {n}-{k}b")
        pairs.append(Pair.objects.create(tournament=t, start_number=2 * n + k + 1,
                                         player_1=a, player_2=b))
    games.append(Game.objects.create(round=r, table_number=n + 1, pair_yb=pairs[0],
                                     pair_rg=pairs[1], first_dealer="Y",
                                     status=Game.Status.IN_PROGRESS))
final = games[0]
record = selfplay_game(7, first_dealer="Y")
for i, text in enumerate(record["moves"][: args["moves"]]):
    move_submit(game=final, text=text, client_id=f"bench-{i:06d}", expected_seq=i)
print(json.dumps({"game": final.pk}))
"""


def fetch(url: str, etag: str = "") -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"If-None-Match": etag} if etag else {})  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310 - loopback
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), b""


# --- the load generator ------------------------------------------------------------


async def _connection(
    port: int, request: bytes, deadline: float, statuses: dict[int, int], latencies: list[float]
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            if length:
                await reader.readexactly(length)
            latencies.append(time.perf_counter() - started)
            statuses[status] = statuses.get(status, 0) + 1
    finally:
        writer.close()


def _client(job: tuple[int, bytes, int, float]) -> dict[str, Any]:
    port, request, connections, deadline = job
    statuses: dict[int, int] = {}
    latencies: list[float] = []

    async def run() -> None:
        await asyncio.gather(
            *(_connection(port, request, deadline, statuses, latencies) for _ in range(connections))
        )

    asyncio.run(run())
    return {"statuses": statuses, "latencies": latencies[:: max(1, len(latencies) // 20000)]}


def load(
    pool: Any, port: int, path: str, etag: str, connections: int, clients: int, seconds: float
) -> dict[str, Any]:
    headers = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: keep-alive\r\n"
    if etag:
        headers += f"If-None-Match: {etag}\r\n"
    request = (headers + "\r\n").encode()
    started = time.perf_counter()
    deadline = started + seconds
    share = [
        connections // clients + (1 if i < connections % clients else 0) for i in range(clients)
    ]
    parts = pool.map(_client, [(port, request, n, deadline) for n in share if n])
    elapsed = time.perf_counter() - started
    statuses: dict[int, int] = {}
    latencies: list[float] = []
    for part in parts:
        for status, n in part["statuses"].items():
            statuses[status] = statuses.get(status, 0) + n
        latencies.extend(part["latencies"])
    return {
        "requests": sum(statuses.values()),
        "seconds": elapsed,
        "statuses": statuses,
        "latencies": latencies,
    }


# --- what the server and the database did -----------------------------------------


def db_table_reads(url: str) -> int:
    """Scans of the application's tables so far (sequential and by index): what a
    request reading the database does, and autovacuum's background work does not."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT coalesce(sum(seq_scan + coalesce(idx_scan, 0)), 0) FROM pg_stat_user_tables"
        ).fetchone()
    return int(row[0]) if row else 0


def empty_cache(redis_url: str) -> None:
    """Empty the benchmark's Redis database: copies and marks of an earlier run (whose
    database had the same ids) must not meet this one, as a restore empties the cache."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        client.flushdb()
    finally:
        client.close()


def copies_in_cache(redis_url: str) -> int:
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        return sum(1 for _ in client.scan_iter(match="*live:v1:copy:*", count=1000))
    finally:
        client.close()


def scenario_run(
    pool: Any,
    args: argparse.Namespace,
    port: int,
    pids: list[int],
    db_url: str,
    path: str,
    etag: str,
) -> dict[str, Any]:
    reads = db_table_reads(db_url)
    cpu = harness.cpu_seconds(pids)
    result = load(pool, port, path, etag, args.connections, args.clients, args.duration)
    cpu = harness.cpu_seconds(pids) - cpu
    time.sleep(1.2)  # PostgreSQL publishes its counters at most once a second
    result["db_table_reads"] = db_table_reads(db_url) - reads
    result["cpu_us_per_request"] = 1e6 * cpu / max(1, result["requests"])
    return result


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    rates = [run["requests"] / run["seconds"] for run in runs]
    latencies = [x for run in runs for x in run["latencies"]]
    statuses: dict[str, int] = {}
    for run in runs:
        for status, n in run["statuses"].items():
            statuses[str(status)] = statuses.get(str(status), 0) + n
    return {
        "req_per_s": round(statistics.median(rates), 1),
        "req_per_s_each_run": [round(rate, 1) for rate in rates],
        "cpu_us_per_request": round(statistics.median(r["cpu_us_per_request"] for r in runs), 1),
        "p50_ms": round(1000 * harness.percentile(latencies, 0.5), 2),
        "p99_ms": round(1000 * harness.percentile(latencies, 0.99), 2),
        "statuses": statuses,
        "db_table_reads": sum(run["db_table_reads"] for run in runs),
    }


IN_PROCESS_SCRIPT = """
import io, json, sys, time
args = json.load(sys.stdin)
from config.wsgi import application

def environ(path, etag):
    path, _, query = path.partition("?")
    env = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query,
           "HTTP_HOST": args["host"], "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80",
           "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(b"")}
    if etag:
        env["HTTP_IF_NONE_MATCH"] = etag
    return env

def start_response(status, headers, exc_info=None):
    start_response.status = status

out = {}
for name, (path, etag) in args["scenarios"].items():
    for _ in range(100):
        b"".join(application(environ(path, etag), start_response))
    started = time.process_time()
    for _ in range(args["n"]):
        answer = application(environ(path, etag), start_response)
        b"".join(answer)
        getattr(answer, "close", lambda: None)()
    out[name] = {"status": start_response.status[:3],
                 "cpu_us": round(1e6 * (time.process_time() - started) / args["n"], 1)}
print(json.dumps(out))
"""
"""Each scenario's CPU per request in one process calling the WSGI application directly:
the application's own cost, without gunicorn's (the same for every scenario) or the
load generator's, and less moved by the other work on a shared machine."""


PAIRS = (
    ("bare_state", "copy_state_200"),
    ("bare_state", "copy_state_304"),
    ("bare_hall", "copy_hall_200"),
    ("bare_hall", "copy_hall_304"),
    ("bare_state", "django_state"),
    ("bare_state", "django_state_304"),
)
"""Each scenario runs right after the bare view of the same bytes: on a machine shared
with other work, the pair meets the same load, and each pair's ratio is its own."""


def main() -> None:
    args = parse_args()
    env = environment()
    load_before = os.getloadavg()
    harness.recreate_database(env["DATABASE_URL"])
    empty_cache(env["REDIS_URL"])
    harness.manage(env, "migrate", "-v", "0")
    final = harness.run_python(
        env, SETUP_SCRIPT, data={"slug": SLUG, "tables": args.tables, "moves": args.moves}
    )
    port = harness.free_port()
    server = harness.start_gunicorn(
        env,
        port,
        ready_path="/health/",
        workers=args.workers,
        threads=args.threads,
        log="poll_load_gunicorn.log",
    )
    base = f"http://127.0.0.1:{port}"
    state_path = f"/api/games/{final['game']}/state/?tail=20"
    hall_path = f"/api/tournaments/{SLUG}/hall/"
    try:
        # The answers as a spectator gets them (this makes the copies), and the same
        # bytes for the bare view.
        BARE_DIR.mkdir(parents=True, exist_ok=True)
        status, state_headers, state_body = fetch(base + state_path)
        hall_status, hall_headers, hall_body = fetch(base + hall_path)
        if status != 200 or hall_status != 200:
            raise SystemExit(f"state {status}, hall {hall_status}")
        (BARE_DIR / "state.json").write_bytes(state_body)
        (BARE_DIR / "hall.json").write_bytes(hall_body)
        state_etag, hall_etag = state_headers["ETag"], hall_headers["ETag"]
        scenarios = {
            "bare_state": ("/bench/bare/state/", ""),
            "copy_state_200": (state_path, ""),
            "copy_state_304": (state_path, state_etag),
            "bare_hall": ("/bench/bare/hall/", ""),
            "copy_hall_200": (hall_path, ""),
            "copy_hall_304": (hall_path, hall_etag),
            "django_state": (state_path + "&legal=0", ""),
            "django_state_304": (state_path + "&legal=0", state_etag),
        }
        for path, etag in scenarios.values():  # warm every process's path once
            fetch(base + path, etag)
        time.sleep(11)  # the warm-up's reads are counted before the first run
        pids = harness.children(server.pid)
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in scenarios}
        ratios: dict[str, list[float]] = {pair[1]: [] for pair in PAIRS}
        cpu_ratios: dict[str, list[float]] = {pair[1]: [] for pair in PAIRS}
        with multiprocessing.get_context("fork").Pool(args.clients) as pool:
            for _round in range(args.rounds):
                for bare, name in PAIRS:
                    done = []
                    for which in (bare, name):
                        path, etag = scenarios[which]
                        run = scenario_run(pool, args, port, pids, env["DATABASE_URL"], path, etag)
                        runs[which].append(run)
                        done.append(run)
                    ratios[name].append(
                        (done[1]["requests"] / done[1]["seconds"])
                        / (done[0]["requests"] / done[0]["seconds"])
                    )
                    cpu_ratios[name].append(
                        done[0]["cpu_us_per_request"] / done[1]["cpu_us_per_request"]
                    )
                # An idle backend publishes its counters within 10 s: the Django
                # scenarios' reads (the last of a round) are not counted for the next.
                time.sleep(11)
        results = {name: summary(done) for name, done in runs.items()}
        copies = copies_in_cache(env["REDIS_URL"])
    finally:
        harness.stop(server, timeout=20)
    in_process = harness.run_python(
        env,
        IN_PROCESS_SCRIPT,
        data={"scenarios": scenarios, "n": 3000, "host": f"127.0.0.1:{port}"},
    )
    report = {
        "layout": f"gunicorn {args.workers} workers x {args.threads} threads (gthread), "
        f"PostgreSQL, Redis; {args.connections} connections from {args.clients} processes",
        "duration_s_per_run": args.duration,
        "rounds": args.rounds,
        "bytes": {"state": len(state_body), "hall": len(hall_body)},
        "copies_in_cache": copies,
        "scenarios": results,
        "ratio_req_per_s_to_bare_run_before": {
            name: {
                "median": round(statistics.median(values), 2),
                "each": [round(v, 2) for v in values],
            }
            for name, values in ratios.items()
        },
        "ratio_cpu_bare_to_this_run_before": {
            name: round(statistics.median(values), 2) for name, values in cpu_ratios.items()
        },
        "in_process_cpu_us_per_request": in_process,
        "in_process_ratio_cpu_bare_to_this": {
            name: round(
                in_process["bare_hall" if "hall" in name else "bare_state"]["cpu_us"]
                / in_process[name]["cpu_us"],
                2,
            )
            for name in scenarios
            if not name.startswith("bare")
        },
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }
    harness.emit(report, keep_as=KEEP_AS)


if __name__ == "__main__":
    main()
