"""Alert latency benchmark: 100 tables, a real worker + beat, Redis, PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dmpartners_bench \\
    REDIS_URL=redis://127.0.0.1:6379/5 \\
    .venv/bin/python bench/alert_latency.py [--tables 100] [--speed 120] [--spread 10]

Creates a throw-away tournament, starts ``--tables`` clocks spread evenly over
``--spread`` real seconds (a round started "within a minute"), with a fast
clock (``--speed`` clock minutes per real minute), and waits until every
table has its 50-minute and 60-minute alert. Latency = ``raised_at - due_at``
per alert row. Prints JSON (p50, p90, p99, max, count raised, duplicates) and
deletes the tournament. By default it starts its own ``celery worker`` and
``celery beat`` (``--no-spawn`` uses ones already running against the same
database and broker); ``--sweep-only`` queues no per-game ETA tasks, to
measure the beat sweep alone. Target: every alert within 2 s.
"""

from __future__ import annotations

import argparse
import datetime
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import harness

ROOT = harness.ROOT
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(48))


def _spawn(tmp: Path) -> list[subprocess.Popen[bytes]]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    worker_log = tmp / "worker.log"
    procs = [
        harness.start_celery_worker(env, name="bench@%h", log=worker_log, pool=("--pool=solo",)),
        harness.start_celery_beat(
            env, schedule=tmp / "beat-schedule", log=tmp / "beat.log", max_interval=1
        ),
    ]
    from config.celery import app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if app.control.ping(timeout=0.5):
                return procs
        except Exception:  # noqa: S110 - broker still coming up
            pass
        time.sleep(0.5)
    raise SystemExit(f"the worker did not come up (see {worker_log})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument(
        "--speed",
        type=float,
        default=120.0,
        help="clock minutes per real minute (120: the 50-min mark after 25 s)",
    )
    parser.add_argument(
        "--spread", type=float, default=10.0, help="real seconds over which the tables start"
    )
    parser.add_argument("--no-spawn", action="store_true")
    parser.add_argument("--sweep-only", action="store_true")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import Count
    from django.utils import timezone

    from games.models import Game
    from games.services import clock as clock_service
    from judging.models import Alert
    from tournament.models import Pair, Player, Round, Tournament

    call_command("migrate", verbosity=0)
    if args.sweep_only:
        clock_service._schedule_marks = lambda clocks: None

    tmp = Path(tempfile.mkdtemp(prefix="alert-bench-"))
    procs = [] if args.no_spawn else _spawn(tmp)
    stamp = int(time.time())
    tournament = Tournament.objects.create(
        name=f"Alert benchmark {stamp}",
        slug=f"bench-alerts-{stamp}",
        date=datetime.date.today(),
        clock_speed=args.speed,
    )
    try:
        round_ = Round.objects.create(tournament=tournament, number=1, status="published")
        players = Player.objects.bulk_create(
            Player(tournament=tournament, name=f"P{i}") for i in range(args.tables * 4)
        )
        pairs = Pair.objects.bulk_create(
            Pair(
                tournament=tournament,
                start_number=i + 1,
                player_1=players[2 * i],
                player_2=players[2 * i + 1],
            )
            for i in range(args.tables * 2)
        )
        games = Game.objects.bulk_create(
            Game(
                round=round_,
                table_number=i + 1,
                pair_yb=pairs[2 * i],
                pair_rg=pairs[2 * i + 1],
                first_dealer="Y",
            )
            for i in range(args.tables)
        )
        begin = time.monotonic()
        for i, game in enumerate(games):
            target = begin + args.spread * i / max(1, args.tables - 1)
            time.sleep(max(0.0, target - time.monotonic()))
            clock_service.clock_start(game=game)
        expected = 2 * args.tables
        deadline = time.monotonic() + args.timeout + 3600 / args.speed
        alerts = Alert.objects.filter(tournament=tournament)
        while alerts.count() < expected and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(2)  # let duplicates, if any could happen, land
        rows = list(alerts.values("game_id", "kind", "due_at", "raised_at"))
        latencies = [(r["raised_at"] - r["due_at"]).total_seconds() for r in rows]
        by_kind = {}
        for kind in ("alert", "limit"):
            values = [
                (r["raised_at"] - r["due_at"]).total_seconds() for r in rows if r["kind"] == kind
            ]
            if values:
                by_kind[kind] = {
                    "count": len(values),
                    "p50": round(statistics.median(values), 3),
                    "max": round(max(values), 3),
                }
        duplicates = sum(
            g["n"] - 1
            for g in alerts.values("game_id", "kind").annotate(n=Count("id")).filter(n__gt=1)
        )
        report = {
            "tables": args.tables,
            "clock_speed": args.speed,
            "start_spread_s": args.spread,
            "mode": "sweep only" if args.sweep_only else "per-game ETA tasks + 1 s sweep",
            "database": connection.vendor,
            "broker": "redis" if os.environ.get("REDIS_URL") else "filesystem",
            "expected": expected,
            "count_raised": len(rows),
            "missing": expected - len(rows),
            "duplicates": duplicates,
            "latency_s": {
                "min": round(min(latencies), 3) if latencies else None,
                "p50": round(statistics.median(latencies), 3) if latencies else None,
                "p90": round(harness.percentile(latencies, 0.90), 3) if latencies else None,
                "p99": round(harness.percentile(latencies, 0.99), 3) if latencies else None,
                "max": round(max(latencies), 3) if latencies else None,
            },
            "by_kind": by_kind,
            "target_max_s": 2.0,
            "target_met": bool(latencies) and len(rows) == expected and max(latencies) <= 2.0,
            "finished_at": timezone.now().isoformat(),
        }
        harness.emit(report)
    finally:
        for proc in procs:
            harness.stop(proc, timeout=15)
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
        Game.objects.filter(round__tournament=tournament).delete()
        Pair.objects.filter(tournament=tournament).delete()
        tournament.delete()


if __name__ == "__main__":
    main()
