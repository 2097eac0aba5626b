#!/usr/bin/env python
"""Load benchmark: one final table's moves pushed to thousands of open viewers.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_push \\
    REDIS_URL=redis://127.0.0.1:6379/4 \\
    .venv/bin/python bench/broadcast_load.py [--viewers 10000] [--push-workers 2]

The production layout on one machine: gunicorn (the pages and the table
API, WSGI, as many workers and threads as deploy/templates/dmpartners-web.service
starts) and uvicorn (the push streams, ASGI, ``--push-workers`` processes at
the unit's ``--push-nice``) on PostgreSQL and Redis. Steps: (re)create the
database named in DATABASE_URL (used for nothing else: it is dropped first),
migrate, create a published event with one round (table 1 is the final; a
fresh set of ``--tables`` other tables for each phase), start both servers,
then run the phases, each one the same load: the final logs
``--final-moves`` entries through the real table API, one every
``--final-think`` seconds (a DM final's pace), while ``--tables`` other
tables log theirs as in bench/move_load.py:

1. ``without_viewers``: nobody watches (the baseline: what the tables get
   from this machine with the same moves published and no fan-out);
2. a load generator (a child process: asyncio over raw sockets, its
   RLIMIT_NOFILE raised) opens ``--viewers`` streams of the final table
   (``GET /push/table/<id>/``) and holds them; ``with_viewers``: the same
   load again;
3. with ``--compare-nice N``, ``with_viewers_push_nice_N``: the push
   processes reniced to N, the same load a third time.

Every viewer notes each event's id and when it arrived; the event says when
it was published (right after the commit), so delivery latency is confirm
to receipt on one clock.

Prints JSON (kept as var/bench/broadcast_load.json): connections held,
server memory (RSS of the push processes before and after the viewers
connected, per connection), the connections and CPU of each push process
(the fan-out), and per phase: the machine's load average before and after
and its busy CPU, the CPU of gunicorn, the push processes and the load
generator, the other tables' submission p50/p99 (the client's and
gunicorn's own) and, with viewers, delivery latency p50/p99/max and events
lost, duplicated and out of order. Compare the phases of one run, not runs:
the machine is shared. A benchmark, not a test: it asserts nothing about
speed (targets: p99 <= 1 s, none lost; submissions p99 <= 25 ms at 100
tables, and no slower with viewers than without).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

try:
    import harness
    import move_load
except ImportError:  # imported as bench.broadcast_load (the tests)
    from bench import harness, move_load

KEEP_AS = "broadcast_load.json"
ACCESS_LOG = harness.VAR / "broadcast_load_access.log"
EVENT = re.compile(rb"id: (\d+)\ndata: (\{[^\n]*\})\n\n")
CORES = os.cpu_count() or 1


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--viewers", type=int, default=10000)
    parser.add_argument("--push-workers", type=int, default=CORES)
    parser.add_argument(
        "--push-nice", type=int, default=10, help="the push unit's Nice= (0: as gunicorn)"
    )
    parser.add_argument(
        "--compare-nice", type=int, default=None, help="a third phase, push reniced to this"
    )
    parser.add_argument("--tables", type=int, default=100, help="other tables meanwhile")
    parser.add_argument("--final-moves", type=int, default=30)
    parser.add_argument("--final-think", type=float, default=3.0)
    parser.add_argument("--moves", type=int, default=20, help="entries per other table")
    parser.add_argument("--think", type=float, default=5.0)
    parser.add_argument("--web-port", type=int, default=8600)
    parser.add_argument("--push-port", type=int, default=8601)
    parser.add_argument("--workers", type=int, default=2 * CORES, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--viewer-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--path", default="", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def raise_file_limit() -> int:
    """Open files up to the hard limit (each viewer is a socket); the new soft limit."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


# --- the load generator (child process) ---------------------------------------------


class Viewer(asyncio.Protocol):
    """One open stream: the ids it received, in order, and each one's latency
    (since the last mark: the parent asks for each phase's figures)."""

    def __init__(self, request: bytes, held: asyncio.Future[bool]) -> None:
        self.request = request
        self.held = held
        self.head = True
        self.buffer = b""
        self.ids: list[int] = []
        self.latencies: list[float] = []
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        now = time.time()
        self.buffer += data
        if self.head:
            if b"\r\n\r\n" not in self.buffer:
                return
            head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
            self.head = False
            if not self.held.done():
                self.held.set_result(head.startswith(b"HTTP/1.1 200"))
        end = 0
        for match in EVENT.finditer(self.buffer):
            self.ids.append(int(match.group(1)))
            self.latencies.append(now - json.loads(match.group(2))["at"])
            end = match.end()
        if end:
            self.buffer = self.buffer[end:]
        elif len(self.buffer) > 65536:
            self.buffer = self.buffer[-4096:]

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.held.done():
            self.held.set_result(False)


async def hold_viewers(port: int, path: str, count: int) -> None:
    """Open ``count`` streams and say how many are held; then, per line on standard
    input, the figures since the last one ("mark"), or close them all ("stop")."""
    loop = asyncio.get_running_loop()
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    viewers: list[Viewer] = []
    transports = []
    started = time.perf_counter()

    async def open_one() -> bool:
        held: asyncio.Future[bool] = loop.create_future()
        viewer = Viewer(request, held)
        try:
            transport, _ = await loop.create_connection(lambda: viewer, "127.0.0.1", port)
        except OSError:
            return False
        transports.append(transport)
        viewers.append(viewer)
        try:
            return await asyncio.wait_for(held, 60)
        except TimeoutError:
            return False

    held = 0
    for start in range(0, count, 500):  # in waves: the listen backlog is 4096
        held += sum(
            await asyncio.gather(*(open_one() for _ in range(start, min(count, start + 500))))
        )
    print(json.dumps({"held": held, "open_s": round(time.perf_counter() - started, 1)}), flush=True)
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line.strip() or line.strip() == "stop":
            break
        print(json.dumps(viewer_figures(viewers)), flush=True)
        for viewer in viewers:
            viewer.ids, viewer.latencies = [], []
    for transport in transports:
        transport.close()
    print(json.dumps(viewer_figures(viewers)), flush=True)


def viewer_figures(viewers: list[Viewer]) -> dict:
    """What the viewers saw: ids per viewer, duplicates, order, latencies."""
    every_id = sorted({i for v in viewers for i in v.ids})
    latencies = sorted(x for v in viewers for x in v.latencies)
    return {
        "event_ids": every_id,
        "received": [len(set(v.ids)) for v in viewers],
        "duplicated": sum(len(v.ids) - len(set(v.ids)) for v in viewers),
        "out_of_order": sum(1 for v in viewers if v.ids != sorted(v.ids)),
        "closed_early": sum(1 for v in viewers if v.closed),
        "latency_ms": {
            "p50": round(harness.percentile(latencies, 0.50) * 1000, 1),
            "p90": round(harness.percentile(latencies, 0.90) * 1000, 1),
            "p99": round(harness.percentile(latencies, 0.99) * 1000, 1),
            "max": round((latencies[-1] if latencies else 0) * 1000, 1),
            "samples": len(latencies),
        },
    }


def viewer_child(args: argparse.Namespace) -> None:
    raise_file_limit()
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    asyncio.run(hold_viewers(args.push_port, args.path, args.viewers))


# --- the servers and the tables (parent process) ------------------------------------


def setup(env: dict[str, str], phases: int, tables: int, moves: int, final_moves: int) -> dict:
    """The round, published: the final (with ``final_moves`` entries per phase) and
    ``tables`` other tables per phase (``moves`` entries each)."""
    games = move_load.setup(env, 1 + phases * tables, max(moves, final_moves * phases))
    harness.run_python(
        env,
        "import json, django\ndjango.setup()\nfrom tournament.models import Tournament\n"
        "print(json.dumps(Tournament.objects.filter(slug='bench-moves').update(published=True)))",
    )
    final, others = games[0], games[1:]
    final["moves"] = final["moves"][: final_moves * phases]
    for table in others:
        table["moves"] = table["moves"][:moves]
    sets = [others[i * tables : (i + 1) * tables] for i in range(phases)]
    return {"final": final, "others": sets}


def start_push(env: dict[str, str], port: int, workers: int, nice: int) -> subprocess.Popen[bytes]:
    cmd = ["nice", "-n", str(nice)] if nice else []
    cmd += [str(harness.BIN / "uvicorn"), "config.asgi:application", "--port", str(port)]
    cmd += ["--host", "127.0.0.1", "--workers", str(workers), "--loop", "uvloop"]
    cmd += ["--http", "httptools", "--no-access-log", "--backlog", "4096", "--log-level", "warning"]
    proc = harness.spawn(cmd, env, "broadcast_push.log")
    harness.wait_port(port, 60)
    deadline = time.monotonic() + 30
    while len(harness.children(proc.pid)) < workers and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(2)  # the workers import Django
    return proc


def renice(pids: list[int], nice: int) -> None:
    """Set the CPU priority of ``pids`` (raising it back needs root; the phase reports
    the priority the push processes really had)."""
    for pid in pids:
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, pid, nice)


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def sockets(pid: int) -> int:
    """Open TCP sockets of ``pid`` (its streams, give or take the listener and Redis)."""
    count = 0
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
    return count


def run_final(base: str, final: dict, first: int, count: int, think: float, out: dict) -> None:
    """The final's entries ``first`` to ``first + count``, one every ``think`` seconds or so."""
    rng = random.Random(first)
    url = f"{base}/api/table/{final['token']}/entries/"
    latencies, statuses = [], []
    for seq in range(first, first + count):
        body = {
            "client_id": f"bench-{final['game']}-{seq:05d}",
            "expected_seq": seq,
            "text": final["moves"][seq],
        }
        t0 = time.perf_counter()
        status, _answer = move_load.post(url, body)
        latencies.append((time.perf_counter() - t0) * 1000)
        statuses.append(status)
        time.sleep(think * (0.5 + rng.random()))
    out["final"] = {"latencies": latencies, "statuses": statuses}


def run_tables(base: str, others: list[dict], think: float, final_run: threading.Thread) -> dict:
    """Every other table's entries as bench/move_load.py logs them, the final meanwhile."""
    results: dict = {}
    threads = [
        threading.Thread(target=move_load.run_table, args=(base, t, think, 0.0, results, i))
        for i, t in enumerate(others)
    ]
    for t in [*threads, final_run]:
        t.start()
    for t in [*threads, final_run]:
        t.join()
    return results


def served_ms(skip: str) -> list[float]:
    """gunicorn's own milliseconds for each entry logged so far (the access log, in
    order), leaving out the paths that contain ``skip`` (the final's token)."""
    if not ACCESS_LOG.exists():
        return []
    times = []
    for line in ACCESS_LOG.read_text().splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[0] == "POST" and parts[1].endswith("/entries/"):
            times.append(-1.0 if skip in parts[1] else int(parts[3]) / 1000)
    return times


def spread_ms(values: list[float]) -> dict[str, float]:
    return {
        "p50": round(harness.percentile(values, 0.50), 1),
        "p99": round(harness.percentile(values, 0.99), 1),
        "max": round(max(values, default=0), 1),
    }


def delivery(figures: dict, held: int, confirmed: int) -> dict:
    """What the viewers saw of one phase's confirmed moves."""
    event_ids = figures["event_ids"]
    return {
        "events_seen": len(event_ids),
        "events_consecutive": bool(event_ids)
        and event_ids[-1] - event_ids[0] + 1 == len(event_ids),
        "deliveries": sum(figures["received"]),
        "lost": sum(max(0, confirmed - n) for n in figures["received"][:held]),
        "duplicated": figures["duplicated"],
        "out_of_order_viewers": figures["out_of_order"],
        "closed_early": figures["closed_early"],
        "delivery_latency_ms": figures["latency_ms"],
    }


def run_phase(  # type: ignore[no-untyped-def]
    name: str, index: int, args, plan: dict, pids: dict, viewers, held: int
) -> dict:
    """One phase's load (a fresh set of other tables, the final's next entries) and
    what it cost and got: the machine's load, each side's CPU, the submissions'
    times and, with viewers, their deliveries."""
    base = f"http://127.0.0.1:{args.web_port}"
    out: dict = {}
    final_run = threading.Thread(
        target=run_final,
        args=(base, plan["final"], index * args.final_moves, args.final_moves,
              args.final_think, out),
    )  # fmt: skip
    served_before = len(served_ms(plan["final"]["token"]))
    load_before, busy_before = os.getloadavg()[0], harness.machine_busy_seconds()
    cpu_before = {side: harness.cpu_seconds(p) for side, p in pids.items()}
    wall = time.perf_counter()
    results = run_tables(base, plan["others"][index], args.think, final_run)
    wall = time.perf_counter() - wall
    cpu = {side: round(harness.cpu_seconds(p) - cpu_before[side], 1) for side, p in pids.items()}
    busy = harness.machine_busy_seconds() - busy_before
    load_after = os.getloadavg()[0]
    time.sleep(3)  # the last event on its way
    others = [x for r in results.values() for x in r["latencies"]]
    statuses = [s for r in results.values() for s in r["statuses"]]
    served = [x for x in served_ms(plan["final"]["token"])[served_before:] if x >= 0]
    confirmed = out["final"]["statuses"].count(201)
    phase = {
        "phase": name,
        "viewers": held,
        "push_nice": os.getpriority(os.PRIO_PROCESS, pids["push"][0]),
        # Other work on the machine queues the servers: the latencies include it.
        "machine_load_avg_1m": [round(load_before, 1), round(load_after, 1)],
        "machine_cpu_busy_share": round(busy / (wall * CORES), 2),
        "cpu_s": cpu,
        "final_moves_confirmed": confirmed,
        "submissions": len(others),
        "submissions_not_201_or_200": len(statuses) - statuses.count(201) - statuses.count(200),
        "submission_ms": spread_ms(others),
        "submission_server_ms": spread_ms(served),
    }
    if viewers is not None:
        viewers.stdin.write("mark\n")
        viewers.stdin.flush()
        figures = json.loads(viewers.stdout.readline())
        phase.update(delivery(figures, held, confirmed))
        phase["push_cpu_us_per_delivery"] = round(
            cpu["push"] * 1e6 / max(1, phase["deliveries"]), 1
        )
    return phase


def phase_names(args: argparse.Namespace) -> list[str]:
    names = ["without_viewers", "with_viewers"]
    if args.compare_nice is not None:
        names.append(f"with_viewers_push_nice_{args.compare_nice}")
    return names


def flush_redis(env: dict[str, str]) -> None:
    subprocess.run(  # noqa: S603 - a fresh Redis database for the run
        [
            sys.executable,
            "-c",
            f"import redis; redis.Redis.from_url({env['REDIS_URL']!r}).flushdb()",
        ],
        check=True,
    )


def summary(phases: list[dict]) -> dict:
    """The phases side by side: do the viewers slow the tables?"""
    return {
        p["phase"]: {
            "submission_p99_ms": p["submission_ms"]["p99"],
            "submission_server_p99_ms": p["submission_server_ms"]["p99"],
            "delivery_p99_ms": p.get("delivery_latency_ms", {}).get("p99"),
            "machine_load_avg_1m": p["machine_load_avg_1m"],
        }
        for p in phases
    }


def main() -> None:
    args = parse_args()
    if args.viewer_child:
        viewer_child(args)
        return
    raise_file_limit()  # inherited by the servers
    if not os.environ.get("REDIS_URL"):
        sys.exit("set REDIS_URL to a Redis database used only for this benchmark")
    names = phase_names(args)
    env = harness.production_environment(harness.postgres_url())
    harness.recreate_database(env["DATABASE_URL"])
    plan = setup(env, len(names), args.tables, args.moves, args.final_moves)
    flush_redis(env)
    ACCESS_LOG.unlink(missing_ok=True)
    web = harness.start_gunicorn(
        env, args.web_port, ready_path="/t/", workers=args.workers, threads=args.threads,
        access_log=ACCESS_LOG,
    )  # fmt: skip
    push = start_push(env, args.push_port, args.push_workers, args.push_nice)
    viewers = None
    phases = []
    try:
        base = f"http://127.0.0.1:{args.web_port}"
        move_load.warm_up(base, [plan["final"], *(t for o in plan["others"] for t in o)])
        workers = harness.children(push.pid)
        pids = {"gunicorn": [web.pid, *harness.children(web.pid)], "push": [push.pid, *workers]}
        phases.append(run_phase(names[0], 0, args, plan, pids, None, 0))
        before = rss_mb(pids["push"])
        viewers = subprocess.Popen(  # noqa: S603 - this script
            [sys.executable, __file__, "--viewer-child", "--viewers", str(args.viewers),
             "--push-port", str(args.push_port), "--path", f"/push/table/{plan['final']['game']}/"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        held = json.loads(viewers.stdout.readline())  # type: ignore[union-attr]
        time.sleep(2)
        after = rss_mb(pids["push"])
        pids["load_generator"] = [viewers.pid]
        cpu_before = {pid: harness.cpu_seconds([pid]) for pid in workers}
        for index, name in enumerate(names[1:], start=1):
            if index == 2:
                renice(pids["push"], args.compare_nice)
            phases.append(run_phase(name, index, args, plan, pids, viewers, held["held"]))
        processes = [
            {
                "pid": pid,
                "sockets": sockets(pid),
                "rss_mb": round(rss_mb([pid]), 1),
                "cpu_s_with_viewers": round(harness.cpu_seconds([pid]) - cpu_before[pid], 1),
            }
            for pid in workers
            if sockets(pid)  # uvicorn's workers, not its helper processes
        ]
        viewers.stdin.write("stop\n")  # type: ignore[union-attr]
        viewers.stdin.flush()  # type: ignore[union-attr]
        viewers.stdout.readline()  # type: ignore[union-attr]
    finally:
        if viewers is not None:
            viewers.kill()
        harness.stop(push, timeout=15)
        harness.stop(web, timeout=30)
    report = {
        "layout": {
            "cores": CORES,
            "gunicorn": f"{args.workers} workers x {args.threads} threads (gthread)",
            "push_processes": args.push_workers,
            "push_nice": args.push_nice,
            "other_tables": args.tables,
            "final_think_s": args.final_think,
            "think_s": args.think,
        },
        "viewers_asked": args.viewers,
        "connections_held": held["held"],
        "connect_s": held["open_s"],
        "summary": summary(phases),
        "phases": phases,
        "memory": {
            "push_rss_before_mb": round(before, 1),
            "push_rss_with_viewers_mb": round(after, 1),
            "kb_per_connection": round((after - before) * 1024 / max(1, held["held"]), 1),
            "total_kb_per_connection": round(after * 1024 / max(1, held["held"]), 1),
        },
        "per_process": processes,
    }
    harness.emit(report, keep_as=KEEP_AS)


if __name__ == "__main__":
    main()
