#!/usr/bin/env python
"""Load benchmark: the public standings page of a 200-pair, 7-round event.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_web \\
    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/standings_load.py

Steps: (re)create the PostgreSQL database named in DATABASE_URL (it must be
a database used for nothing else: it is dropped first), migrate, collect
static files into var/bench/, create a tournament with 200 pairs and seven
Swiss rounds of results through the services, start gunicorn on 127.0.0.1,
then load the standings page with 32 concurrent connections (wrk if
installed, else a built-in threaded client) and print JSON: requests/s,
p50/p99 latency and errors. Traffic goes only to 127.0.0.1.

This is a benchmark, not a test: it asserts nothing about speed. The
target is >= 2,500 req/s with p99 <= 25 ms; the figures depend on the
machine (the load generator shares its cores with the server).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from urllib.parse import urlparse

import harness

ROOT = harness.ROOT
PYTHON = harness.PYTHON
VAR = harness.VAR
SLUG = "bench-standings"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--duration", type=int, default=15, help="seconds of load")
    parser.add_argument("--workers", type=int, default=2)
    # gthread keeps connections alive (sync closes each one), which halves
    # the work per request on loopback.
    parser.add_argument("--worker-class", default="gthread", choices=["sync", "gthread"])
    parser.add_argument("--threads", type=int, default=2, help="gthread only")
    parser.add_argument("--tool", default="auto", choices=["auto", "wrk", "python"])
    parser.add_argument("--keep-data", action="store_true", help="reuse the database as it is")
    return parser.parse_args()


def environment() -> dict[str, str]:
    database_url = harness.postgres_url("postgres://postgres@127.0.0.1:5432/bench_web")
    return harness.production_environment(
        database_url,
        REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/13"),
        DJANGO_SECRET_KEY="bench-only-" + "x" * 40,
        DB_CONN_MAX_AGE="600",
        VAR_DIR=str(VAR),
    )


def create_tournament(env: dict[str, str], pairs: int, rounds: int) -> dict[str, object]:
    """Set up the event through the services, in a child process with the bench settings."""
    script = f"""
import datetime, json, random, time
import django
django.setup()
from django.contrib.auth import get_user_model
from games.services.results import game_result_record
from competition import selectors
from tournament.models import Pair
from competition.services.pairing import round_close, round_pair, round_publish, round_start
from competition.pairs_csv import pairs_csv_read
from tournament.services.registration import pair_check_in, pairs_import_csv, tournament_create

started = time.perf_counter()
rng = random.Random(7)
user = get_user_model().objects.create_user("bench-organiser", password="bench-organiser")
tournament = tournament_create(actor=user, name="Bench DM", date=datetime.date(2026, 11, 28),
                               slug="{SLUG}", swiss_rounds={rounds}, published=True)
rows = ["player_1;player_2;club"] + [f"Spiller {{2*i+1}};Spiller {{2*i+2}};Klub {{i % 17}}"
                                     for i in range({pairs})]
read = pairs_csv_read("\\n".join(rows))
report = pairs_import_csv(tournament=tournament, actor=user, rows=read.rows, refused=read.refused)
assert not report.errors, report.errors
for pair in Pair.objects.filter(tournament=tournament):
    pair_check_in(pair=pair, actor=user)
for number in range({rounds}):
    round_ = round_pair(tournament=tournament, actor=user, random_seed=1000 + number)
    round_publish(round=round_, actor=user)
    round_start(round=round_, actor=user)
    for game in selectors.pairings_for_round(round=round_):
        winner = rng.choice(["YB", "RG"])
        loser_locked = rng.randint(0, 7)
        game_result_record(
            game=game, actor=user, winner=winner,
            locked_yb=8 if winner == "YB" else loser_locked,
            locked_rg=8 if winner == "RG" else loser_locked,
            distance_yb=0 if winner == "YB" else rng.randint(5, 240),
            distance_rg=0 if winner == "RG" else rng.randint(5, 240),
        )
    round_close(round=round_, actor=user)
print(json.dumps({{"setup_seconds": round(time.perf_counter() - started, 1)}}))
"""
    return harness.run_python(env, script)


def fetch(url: str) -> tuple[int, str, float]:
    started = time.perf_counter()
    # Generous: the first render of a 200-pair page on a busy machine takes seconds.
    with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 - loopback only
        body = response.read().decode()
        return response.status, body, (time.perf_counter() - started) * 1000


def run_wrk(url: str, connections: int, duration: int) -> dict[str, object]:
    out = subprocess.run(  # noqa: S603
        [
            shutil.which("wrk") or "wrk",
            "-t",
            "2",
            "-c",
            str(connections),
            "-d",
            f"{duration}s",
            "--latency",
            "--timeout",
            "5s",
            url,
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout

    def ms(text: str) -> float:
        value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    latency = dict(re.findall(r"^\s+(50|75|90|99)%\s+(\S+)$", out, re.M))
    socket_errors = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out
    )
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {
        "tool": "wrk",
        "requests": int(re.search(r"(\d+) requests in", out).group(1)),
        "req_per_s": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50_ms": ms(latency["50"]),
        "p90_ms": ms(latency["90"]),
        "p99_ms": ms(latency["99"]),
        "errors": (sum(int(n) for n in socket_errors.groups()) if socket_errors else 0)
        + (int(non_2xx.group(1)) if non_2xx else 0),
    }


def run_python_client(url: str, connections: int, duration: int) -> dict[str, object]:
    """A threaded keep-alive client (much slower than wrk: it competes for the GIL)."""
    import http.client

    parsed = urlparse(url)
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop_at = time.monotonic() + duration

    def worker() -> None:
        conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=5)
        mine: list[float] = []
        while time.monotonic() < stop_at:
            started = time.perf_counter()
            try:
                conn.request("GET", parsed.path)
                response = conn.getresponse()
                response.read()
                if response.status != 200:
                    errors[0] += 1
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=5)
            except OSError:
                errors[0] += 1
                conn.close()
                conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=5)
                continue
            mine.append((time.perf_counter() - started) * 1000)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started

    def pct(p: float) -> float:
        return round(harness.percentile(latencies, p), 2)

    return {
        "tool": "python-threads",
        "requests": len(latencies),
        "req_per_s": round(len(latencies) / elapsed, 1),
        "p50_ms": pct(0.50),
        "p90_ms": pct(0.90),
        "p99_ms": pct(0.99),
        "errors": errors[0],
    }


def uncached_render_ms(env: dict[str, str], url: str, samples: int = 5) -> float:
    """Median time of a page after a data-version bump (cache miss in every process)."""
    bump = (
        "import django; django.setup()\n"
        "from tournament.models import Tournament\n"
        "from tournament.services.audit import tournament_data_changed\n"
        f"tournament_data_changed(tournament=Tournament.objects.get(slug='{SLUG}'))\n"
    )
    times = []
    for _ in range(samples):
        subprocess.run([PYTHON, "-c", bump], cwd=ROOT, env=env, check=True)  # noqa: S603
        time.sleep(1.2)  # past the per-process version memo
        times.append(fetch(url)[2])
    return round(sorted(times)[len(times) // 2], 1)


def main() -> None:
    args = parse_args()
    env = environment()
    VAR.mkdir(parents=True, exist_ok=True)
    setup: dict[str, object] = {}
    if not args.keep_data:
        harness.recreate_database(env["DATABASE_URL"])
        harness.manage(env, "migrate", "--noinput")
        harness.manage(env, "compilemessages_if_needed")
        harness.manage(env, "collectstatic", "--noinput", "--clear")
        setup = create_tournament(env, args.pairs, args.rounds)
    port = harness.free_port()
    server = harness.start_gunicorn(
        env,
        port,
        workers=args.workers,
        worker_class=args.worker_class,
        threads=args.threads,
        extra=("--backlog", "2048"),
    )
    url = f"http://127.0.0.1:{port}/tournaments/{SLUG}/standings/"
    try:
        status, body, _ = fetch(url)
        rows = body.count('<td class="rank">')
        if status != 200 or rows != args.pairs:
            sys.exit(f"standings page not as expected: status {status}, {rows} rows")
        uncached = uncached_render_ms(env, url)
        for _ in range(200):  # warm every worker's memo and connection
            fetch(url)
        tool = args.tool
        if tool == "auto":
            tool = "wrk" if shutil.which("wrk") else "python"
        runner = run_wrk if tool == "wrk" else run_python_client
        result = runner(url, args.connections, args.duration)
    finally:
        harness.stop(server, timeout=15)
    report = {
        "page": "/tournaments/<slug>/standings/",
        "pairs": args.pairs,
        "rounds": args.rounds,
        "standings_rows": rows,
        "page_bytes": len(body.encode()),
        "connections": args.connections,
        "duration_s": args.duration,
        "gunicorn": f"{args.workers} x {args.worker_class}"
        + (f" ({args.threads} threads)" if args.worker_class == "gthread" else ""),
        "cpu_cores": os.cpu_count(),
        "uncached_render_ms": uncached,
        **setup,
        **result,
        "target": {"req_per_s": 2500, "p99_ms": 25},
    }
    report["meets_target"] = bool(
        report["req_per_s"] >= 2500 and report["p99_ms"] <= 25 and not report["errors"]
    )
    harness.emit(report)


if __name__ == "__main__":
    random.seed(0)
    main()
