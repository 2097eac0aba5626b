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
import os
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

import harness
from harness import (
    machine_busy_seconds,
    percentile,
    recreate_database,
    stop,
)
from round_load_clients import (
    FAULT_WINDOW_S,
    SPECTATOR_MIX,
    Conditional,
    Stats,
    judge,
    spectator,
    table_client,
    table_device,
)
from round_load_data import setup_data, verify
from round_load_processes import (
    ACCESS_LOG,
    GUNICORN_LOG,
    Processes,
    cpu_by_part,
    environment,
    inject_faults,
    start_beat,
    start_gunicorn,
    start_redis,
    start_worker,
)

ROOT = harness.ROOT


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
