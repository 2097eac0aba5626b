#!/usr/bin/env python
"""Load benchmark: one final table's moves pushed to thousands of open viewers.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_push \\
    REDIS_URL=redis://127.0.0.1:6379/4 \\
    .venv/bin/python bench/broadcast_load.py [--viewers 10000] [--push-workers 2]

The production layout on one machine: gunicorn (the pages and the table
API, WSGI) and uvicorn (the push streams, ASGI, ``--push-workers``
processes) on PostgreSQL and Redis. Steps: (re)create the database named in
DATABASE_URL (used for nothing else: it is dropped first), migrate, create a
published event with one round of ``--tables`` + 1 tables (table 1 is the
final), start both servers, then:

1. a load generator (a child process: asyncio over raw sockets, its
   RLIMIT_NOFILE raised) opens ``--viewers`` streams of the final table
   (``GET /push/table/<id>/``) and holds them;
2. the final logs ``--final-moves`` entries through the real table API, one
   every ``--final-think`` seconds (a DM final's pace), while ``--tables``
   other tables log theirs as in bench/move_load.py;
3. every viewer notes each event's id and when it arrived; the event says
   when it was published (right after the commit), so delivery latency is
   confirm to receipt on one clock.

Prints JSON (kept as var/bench/broadcast_load.json): connections held,
delivery latency p50/p99/max, events lost, duplicated and out of order,
server memory (RSS of the push processes before and after the viewers
connected, per connection), the connections and CPU of each push process
(the fan-out), and the other tables' submission p50/p99 meanwhile. A
benchmark, not a test: it asserts nothing about speed (targets: p99 <= 1 s,
none lost; submissions p99 <= 25 ms at 100 tables).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
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


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--viewers", type=int, default=10000)
    parser.add_argument("--push-workers", type=int, default=2)
    parser.add_argument("--tables", type=int, default=100, help="other tables meanwhile")
    parser.add_argument("--final-moves", type=int, default=30)
    parser.add_argument("--final-think", type=float, default=3.0)
    parser.add_argument("--moves", type=int, default=20, help="entries per other table")
    parser.add_argument("--think", type=float, default=5.0)
    parser.add_argument("--web-port", type=int, default=8600)
    parser.add_argument("--push-port", type=int, default=8601)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=8)
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
    """One open stream: the ids it received, in order, and each one's latency."""

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
    """Open ``count`` streams, say how many are held, and report when told to stop."""
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
    await loop.run_in_executor(None, sys.stdin.readline)  # "stop"
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


def setup(env: dict[str, str], tables: int, moves: int, final_moves: int) -> list[dict]:
    """The round (table 1 is the final, with ``final_moves`` entries), published."""
    tables_ = move_load.setup(env, tables + 1, max(moves, final_moves))
    harness.run_python(
        env,
        "import json, django\ndjango.setup()\nfrom tournament.models import Tournament\n"
        "print(json.dumps(Tournament.objects.filter(slug='bench-moves').update(published=True)))",
    )
    tables_[0]["moves"] = tables_[0]["moves"][:final_moves]
    for table in tables_[1:]:
        table["moves"] = table["moves"][:moves]
    return tables_


def start_push(env: dict[str, str], port: int, workers: int) -> subprocess.Popen[bytes]:
    cmd = [str(harness.BIN / "uvicorn"), "config.asgi:application", "--port", str(port)]
    cmd += ["--host", "127.0.0.1", "--workers", str(workers), "--loop", "uvloop"]
    cmd += ["--http", "httptools", "--no-access-log", "--backlog", "4096", "--log-level", "warning"]
    proc = harness.spawn(cmd, env, "broadcast_push.log")
    harness.wait_port(port, 60)
    deadline = time.monotonic() + 30
    while len(harness.children(proc.pid)) < workers and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(2)  # the workers import Django
    return proc


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


def run_tables(base: str, tables: list[dict], final_think: float, think: float) -> dict:
    results: dict = {}
    threads = [
        threading.Thread(
            target=move_load.run_table,
            args=(base, t, final_think if i == 0 else think, 0.0, results, i),
        )
        for i, t in enumerate(tables)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def report_of(args, held, figures, tables, results, memory, processes) -> dict:  # type: ignore[no-untyped-def]
    final = results[tables[0]["game"]]
    others = [x for t in tables[1:] for x in results[t["game"]]["latencies"]]
    confirmed = final["statuses"].count(201)
    event_ids = figures["event_ids"]
    lost = sum(max(0, confirmed - n) for n in figures["received"][: held["held"]])
    served = harness.access_log_times(ACCESS_LOG, "POST", "/entries/")
    return {
        "viewers_asked": args.viewers,
        "connections_held": held["held"],
        "connect_s": held["open_s"],
        "push_processes": args.push_workers,
        "final_moves_confirmed": confirmed,
        "events_seen": len(event_ids),
        "events_consecutive": bool(event_ids)
        and event_ids[-1] - event_ids[0] + 1 == len(event_ids),
        "deliveries": sum(figures["received"]),
        "lost": lost,
        "duplicated": figures["duplicated"],
        "out_of_order_viewers": figures["out_of_order"],
        "closed_early": figures["closed_early"],
        "delivery_latency_ms": figures["latency_ms"],
        "memory": memory,
        "per_process": processes,
        "other_tables": args.tables,
        "submissions": len(others),
        "submission_ms": {
            "p50": round(harness.percentile(others, 0.50), 1),
            "p99": round(harness.percentile(others, 0.99), 1),
            "max": round(max(others, default=0), 1),
        },
        "submission_server_ms": {
            "p50": round(harness.percentile(served, 0.50), 1),
            "p99": round(harness.percentile(served, 0.99), 1),
        },
    }


def main() -> None:
    args = parse_args()
    if args.viewer_child:
        viewer_child(args)
        return
    raise_file_limit()  # inherited by the servers
    if not os.environ.get("REDIS_URL"):
        sys.exit("set REDIS_URL to a Redis database used only for this benchmark")
    env = harness.production_environment(harness.postgres_url())
    harness.recreate_database(env["DATABASE_URL"])
    tables = setup(env, args.tables, args.moves, args.final_moves)
    subprocess.run(  # noqa: S603 - a fresh Redis database for the run
        [
            sys.executable,
            "-c",
            f"import redis; redis.Redis.from_url({env['REDIS_URL']!r}).flushdb()",
        ],
        check=True,
    )
    ACCESS_LOG.unlink(missing_ok=True)
    web = harness.start_gunicorn(
        env, args.web_port, ready_path="/t/", workers=args.workers, threads=args.threads,
        access_log=ACCESS_LOG,
    )  # fmt: skip
    push = start_push(env, args.push_port, args.push_workers)
    viewers = None
    try:
        base = f"http://127.0.0.1:{args.web_port}"
        move_load.warm_up(base, tables)
        workers = harness.children(push.pid)
        pids = [push.pid, *workers]
        before = rss_mb(pids)
        viewers = subprocess.Popen(  # noqa: S603 - this script
            [sys.executable, __file__, "--viewer-child", "--viewers", str(args.viewers),
             "--push-port", str(args.push_port), "--path", f"/push/table/{tables[0]['game']}/"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        held = json.loads(viewers.stdout.readline())  # type: ignore[union-attr]
        time.sleep(2)
        after = rss_mb(pids)
        cpu_before = {pid: harness.cpu_seconds([pid]) for pid in [*workers, viewers.pid]}
        load_before = os.getloadavg()[0]
        results = run_tables(base, tables, args.final_think, args.think)
        load_after = os.getloadavg()[0]
        generator_cpu = harness.cpu_seconds([viewers.pid]) - cpu_before[viewers.pid]
        time.sleep(3)  # the last event on its way
        processes = [
            {
                "pid": pid,
                "sockets": sockets(pid),
                "rss_mb": round(rss_mb([pid]), 1),
                "cpu_s_during_moves": round(harness.cpu_seconds([pid]) - cpu_before[pid], 1),
            }
            for pid in workers
            if sockets(pid)  # uvicorn's workers, not its helper processes
        ]
        viewers.stdin.write("stop\n")  # type: ignore[union-attr]
        viewers.stdin.flush()  # type: ignore[union-attr]
        figures = json.loads(viewers.stdout.readline())  # type: ignore[union-attr]
    finally:
        if viewers is not None:
            viewers.kill()
        harness.stop(push, timeout=15)
        harness.stop(web, timeout=30)
    memory = {
        "push_rss_before_mb": round(before, 1),
        "push_rss_with_viewers_mb": round(after, 1),
        "kb_per_connection": round((after - before) * 1024 / max(1, held["held"]), 1),
        "total_kb_per_connection": round(after * 1024 / max(1, held["held"]), 1),
    }
    report = report_of(args, held, figures, tables, results, memory, processes)
    push_cpu = sum(p["cpu_s_during_moves"] for p in processes)
    report["cpu"] = {
        # Other work on the machine queues the servers: the latencies above include it.
        "machine_load_avg_1m": [round(load_before, 1), round(load_after, 1)],
        "cores": os.cpu_count(),
        "push_cpu_s": round(push_cpu, 1),
        "push_cpu_us_per_delivery": round(push_cpu * 1e6 / max(1, report["deliveries"]), 1),
        "load_generator_cpu_s": round(generator_cpu, 1),
    }
    harness.emit(report, keep_as=KEEP_AS)


if __name__ == "__main__":
    main()
