#!/usr/bin/env python
"""Load benchmark: 100 tables logging moves at once through the table API.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_moves \\
    .venv/bin/python bench/move_load.py [--tables 100] [--moves 80] [--think 1.0]

Steps: (re)create the PostgreSQL database named in DATABASE_URL (it must be
used for nothing else: it is dropped first), migrate, create one round with
``--tables`` games, start gunicorn on 127.0.0.1, then run one client thread
per table that logs the first ``--moves`` entries of a self-play game
(``POST /api/table/<token>/entries/``, each checked by the engine on the
server), pausing ``--think`` seconds between entries like a table does
(0 = back to back: a saturation test). A share of submissions (``--retry``)
is sent twice with the same client_id, like a double tap or a lost answer.
Afterwards every game's log is compared with what was sent: lost and
duplicated entries are counted and the hash chains verified.

Prints JSON: submissions, p50/p95/p99/max latency in ms, throughput, lost,
duplicated, chain errors, and keeps it as var/bench/move_load.json. The
load's figures are kept before the verification and printed even when it
fails (then with ``verify_error``, and the run exits non-zero). The expected
entries reach the verifying child process on its standard input, so any
number of tables fits. This is a benchmark, not a test: it asserts nothing
about speed (target: p99 <= 50 ms, 0 lost, 0 duplicated); the
figures depend on the machine (the load tool shares its cores with gunicorn).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable

try:
    import harness
except ImportError:  # imported as bench.move_load (the tests)
    from bench import harness


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=40, help="entries per table")
    parser.add_argument("--think", type=float, default=5.0, help="seconds between entries")
    parser.add_argument("--retry", type=float, default=0.05, help="share sent twice")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    return parser.parse_args()


def environment() -> dict[str, str]:
    return harness.production_environment(harness.postgres_url())


def setup(env: dict[str, str], tables: int, moves: int) -> list[dict]:
    """Migrate and create the round; returns per table its token and entries."""
    harness.manage(env, "migrate", "-v", "0", quiet=False)
    script = f"""
import datetime, json, django
django.setup()
from games.engine import selfplay_game
from games.models import Game
from games.services.tokens import game_token
from tournament.models import Pair, Player, Round, Tournament
t = Tournament.objects.create(name="Bench", slug="bench-moves", date=datetime.date(2026, 11, 28),
                              published=True)
r = Round.objects.create(tournament=t, number=1, status=Round.Status.IN_PROGRESS)
out = []
for n in range({tables}):
    pairs = []
    for k in range(2):
        a = Player.objects.create(tournament=t, name=f"P{{n}}-{{k}}a")
        b = Player.objects.create(tournament=t, name=f"P{{n}}-{{k}}b")
        pairs.append(Pair.objects.create(tournament=t, start_number=2 * n + k + 1,
                                         player_1=a, player_2=b))
    game = Game.objects.create(round=r, table_number=n + 1, pair_yb=pairs[0], pair_rg=pairs[1],
                               first_dealer="YRBG"[n % 4], status=Game.Status.IN_PROGRESS)
    record = selfplay_game(1000 + n, first_dealer=game.first_dealer)
    out.append({{"game": game.pk, "token": game_token(game=game),
                "moves": [m.split(" ", 1)[1] for m in record["moves"][:{moves}]],
                "full": record["moves"][:{moves}]}})
print(json.dumps(out))
"""
    return harness.run_python(env, script)


ACCESS_LOG = harness.VAR / "move_load_access.log"
KEEP_AS = "move_load.json"


def post(url: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(  # noqa: S310 - loopback only
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as res:  # noqa: S310
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")


def run_table(base: str, table: dict, think: float, retry: float, out: dict, seed: int) -> None:
    rng = random.Random(seed)
    url = f"{base}/api/table/{table['token']}/entries/"
    latencies, statuses = [], []
    time.sleep(rng.random() * max(think, 0.05))  # tables do not start in lockstep
    for seq, text in enumerate(table["moves"]):
        body = {"client_id": f"bench-{table['game']}-{seq:05d}", "expected_seq": seq, "text": text}
        sends = 2 if rng.random() < retry else 1
        for _ in range(sends):
            t0 = time.perf_counter()
            status, _answer = post(url, body)
            latencies.append((time.perf_counter() - t0) * 1000)
            statuses.append(status)
        if think:
            time.sleep(think * (0.5 + rng.random()))
    out[table["game"]] = {"latencies": latencies, "statuses": statuses}


def warm_up(base: str, tables: list[dict]) -> None:
    """Read every table's state once (not timed): workers import and connect first."""

    def read(chunk: list[dict]) -> None:
        for table in chunk:
            urllib.request.urlopen(  # noqa: S310 - loopback only
                f"{base}/api/table/{table['token']}/state/", timeout=60
            ).read()

    threads = [threading.Thread(target=read, args=(tables[i::8],)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


VERIFY_SCRIPT = """
import json, sys, django
django.setup()
from games.models import MoveEntry, Game
from games.selectors import move_log_verify
expected = json.load(sys.stdin)
lost = duplicated = chain = 0
for game_id, moves in expected.items():
    rows = list(MoveEntry.objects.filter(game_id=int(game_id)).order_by("seq")
                .values_list("seq", "text"))
    texts = [t for _s, t in rows]
    lost += sum(1 for i, m in enumerate(moves) if i >= len(texts) or texts[i] != m)
    duplicated += max(0, len(rows) - len(moves))
    chain += 0 if move_log_verify(game=Game.objects.get(pk=int(game_id))).ok else 1
print(json.dumps({"lost": lost, "duplicated": duplicated, "chain_errors": chain}))
"""
"""Compares every game's stored log with what was sent; the expected entries come on
standard input: inside the script they would pass one argument's 128 KiB from ~200 tables."""


def verify(env: dict[str, str], tables: list[dict]) -> dict[str, int]:
    """Lost and duplicated entries and broken hash chains, counted in a child process."""
    expected = {str(t["game"]): t["full"] for t in tables}
    return harness.run_python(env, VERIFY_SCRIPT, data=expected)


def verified(report: dict, verify_step: Callable[[], dict[str, int]]) -> dict:
    """``report`` with the verification's counts, kept as var/bench/move_load.json before
    verifying and printed whatever happens: the load's figures outlive a failed check."""
    harness.keep(report, KEEP_AS)
    try:
        report.update(verify_step())
    except (OSError, ValueError, IndexError, subprocess.CalledProcessError) as err:
        detail = getattr(err, "stderr", None) or ""
        report["verify_error"] = f"{type(err).__name__}: {err} {detail[-2000:]}".strip()
        harness.emit(report, keep_as=KEEP_AS)
        raise
    return report


def main() -> None:
    args = parse_args()
    env = environment()
    harness.recreate_database(env["DATABASE_URL"])
    tables = setup(env, args.tables, args.moves)
    port = harness.free_port()
    ACCESS_LOG.unlink(missing_ok=True)
    server = harness.start_gunicorn(
        env,
        port,
        ready_path="/t/",
        workers=args.workers,
        threads=args.threads,
        access_log=ACCESS_LOG,
    )
    results: dict = {}
    try:
        warm_up(f"http://127.0.0.1:{port}", tables)
        threads = [
            threading.Thread(
                target=run_table,
                args=(f"http://127.0.0.1:{port}", t, args.think, args.retry, results, i),
            )
            for i, t in enumerate(tables)
        ]
        started = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started
    finally:
        harness.stop(server, timeout=30)
    latencies = [x for r in results.values() for x in r["latencies"]]
    statuses = [s for r in results.values() for s in r["statuses"]]
    report = {
        "tables": args.tables,
        "entries_per_table": args.moves,
        "think_s": args.think,
        "gunicorn": f"{args.workers} workers x {args.threads} threads (gthread)",
        "submissions": len(latencies),
        "created_201": statuses.count(201),
        "retried_200": statuses.count(200),
        "other_status": len(statuses) - statuses.count(201) - statuses.count(200),
        "throughput_per_s": round(len(latencies) / elapsed, 1),
        "p50_ms": round(harness.percentile(latencies, 0.50), 1),
        "p95_ms": round(harness.percentile(latencies, 0.95), 1),
        "p99_ms": round(harness.percentile(latencies, 0.99), 1),
        "max_ms": round(max(latencies), 1),
    }
    served = harness.access_log_times(ACCESS_LOG, "POST", "/entries/")
    if served:
        report["server_side"] = {
            "p50_ms": round(harness.percentile(served, 0.50), 1),
            "p95_ms": round(harness.percentile(served, 0.95), 1),
            "p99_ms": round(harness.percentile(served, 0.99), 1),
            "max_ms": round(max(served), 1),
        }
    harness.emit(verified(report, lambda: verify(env, tables)), keep_as=KEEP_AS)


if __name__ == "__main__":
    main()
