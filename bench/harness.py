"""What the load benchmarks share: a throw-away database, the processes, the figures.

Every script in bench/ (round_load, standings_load, move_load, alert_latency,
table_ui) runs the real parts on loopback only: it (re)creates a PostgreSQL
database that serves nothing else (or a SQLite file in a temporary folder),
starts gunicorn, and where it needs them a Celery worker and beat and a
private redis-server, measures, stops them all, and prints one JSON document.
The plumbing for that lives here once; each script keeps what it measures
and its own command line and output (docs/operations.md, "Benchmarks").

The scripts are run as files (``python bench/x.py``), so this module is
imported as ``harness`` from the scripts' folder.

The in-process benchmarks (``manage.py bench_season``, ``bench_ratings_stats``)
share the last section: generated data in a transaction that is rolled back,
repeated timings (wall clock and this process's CPU) summed up alike, one JSON
document. They import this module as ``bench.harness``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
BIN = Path(PYTHON).parent
VAR = ROOT / "var" / "bench"
SECRET_KEY = "bench-only-secret-key-" + "x" * 40


# --- environment and database ----------------------------------------------------


def postgres_url(default: str | None = None) -> str:
    """DATABASE_URL (or ``default``), which must name a PostgreSQL database used
    only for the benchmark: it is dropped and created again."""
    url = os.environ.get("DATABASE_URL") or default or ""
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("set DATABASE_URL to a PostgreSQL database used only for this benchmark")
    return url


def production_environment(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of the processes under test: production settings on
    plain HTTP on loopback (a reverse proxy does TLS in production)."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY", SECRET_KEY),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "False",
        "DB_CONN_MAX_AGE": "60",
        "LOG_LEVEL": "WARNING",
        **extra,
    }


def recreate_database(url: str) -> None:
    """Drop the database named in ``url`` (closing its connections) and create it empty."""
    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        sys.exit(f"unexpected database name {name!r}")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def terminate_backends(url: str) -> int:
    """What a PostgreSQL restart does to the application: every connection dies."""
    import psycopg

    name = urlparse(url).path.lstrip("/")
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        ).fetchall()
    return len(rows)


def manage(env: dict[str, str], *args: str, quiet: bool = True) -> None:
    """``manage.py`` with the benchmark's environment."""
    subprocess.run(  # noqa: S603 - this project's own manage.py
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL if quiet else None,
    )


def run_python(env: dict[str, str], script: str, data: Any = None) -> Any:
    """Run ``script`` in a child Python with ``env``; its last output line is JSON.

    ``data`` goes to the child as JSON on its standard input (``json.load(sys.stdin)``),
    never inside ``script``: the script is one command-line argument, and Linux refuses
    an argument over 128 KiB (move_load's expected entries pass it from ~200 tables).
    """
    done = subprocess.run(  # noqa: S603 - this project's own Python
        [PYTHON, "-c", script],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        input=json.dumps(data) if data is not None else None,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- processes -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port}")


def wait_http(url: str, tries: int = 100) -> None:
    """Until ``url`` answers at all (any status), 0.2 s apart."""
    for _ in range(tries):
        try:
            urllib.request.urlopen(url, timeout=10)  # noqa: S310 - loopback only
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer")


def spawn(
    cmd: Sequence[str], env: dict[str, str], log: str | Path | None = None
) -> subprocess.Popen[bytes]:
    """Start ``cmd`` in its own process group (stop() ends it and its children);
    its output goes to ``log`` (a name under var/bench/, or a path) when given."""
    out = None
    if log is not None:
        path = log if isinstance(log, Path) else VAR / log
        path.parent.mkdir(parents=True, exist_ok=True)
        out = path.open("ab")
    return subprocess.Popen(  # noqa: S603 - fixed commands of this repo
        list(cmd),
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT if out else None,
        start_new_session=True,
    )


def gunicorn_command(
    port: int,
    *,
    workers: int,
    threads: int = 1,
    worker_class: str = "gthread",
    access_log: Path | None = None,
    access_format: str = "%(m)s %(U)s %(s)s %(D)s",
    extra: Sequence[str] = (),
) -> list[str]:
    """gunicorn on 127.0.0.1:``port``. With ``access_log`` it writes its own time
    per request (microseconds, %(D)s): the load tool shares the cores, so its
    latencies include its own wait for the CPU, the server's do not."""
    cmd = [str(BIN / "gunicorn"), "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", str(workers)]
    cmd += ["-k", worker_class]
    if worker_class == "gthread":
        cmd += ["--threads", str(threads)]
    cmd += ["--log-level", "warning", *extra]
    if access_log is not None:
        access_log.parent.mkdir(parents=True, exist_ok=True)
        cmd += ["--access-logfile", str(access_log), "--access-logformat", access_format]
    return cmd


def start_gunicorn(
    env: dict[str, str],
    port: int,
    *,
    ready_path: str | None = None,
    log: str | Path | None = None,
    **options: Any,
) -> subprocess.Popen[bytes]:
    """Start gunicorn (gunicorn_command's options) and wait until it listens, or
    until ``ready_path`` answers (the first request also loads the app)."""
    proc = spawn(gunicorn_command(port, **options), env, log)
    try:
        if ready_path is None:
            wait_port(port, 60)
        else:
            wait_http(f"http://127.0.0.1:{port}{ready_path}", tries=150)
    except RuntimeError:
        stop(proc)
        sys.exit("gunicorn did not start")
    return proc


def start_celery_worker(
    env: dict[str, str],
    *,
    name: str,
    log: str | Path,
    nice: int = 0,
    pool: Sequence[str] = ("-c", "2"),
) -> subprocess.Popen[bytes]:
    # docs/operations.md: on machines shared with the web processes the worker
    # may run at a lower CPU priority (``nice``), so a wave of alerts does not
    # queue the tables' requests.
    cmd = [*(["nice", "-n", str(nice)] if nice else []), PYTHON, "-m", "celery", "-A", "config"]
    cmd += ["worker", "-l", "warning", *pool, "--without-gossip", "--without-mingle", "-n", name]
    return spawn(cmd, env, log)


def start_celery_beat(
    env: dict[str, str], *, schedule: Path, log: str | Path, max_interval: float | None = None
) -> subprocess.Popen[bytes]:
    cmd = [PYTHON, "-m", "celery", "-A", "config", "beat", "-l", "warning", "-s", str(schedule)]
    if max_interval is not None:
        cmd += ["--max-interval", str(max_interval)]
    return spawn(cmd, env, log)


def start_redis(port: int, log: str | Path) -> subprocess.Popen[bytes]:
    """A private redis-server on ``port`` (never the shared one), without persistence."""
    cmd = ["redis-server", "--port", str(port), "--bind", "127.0.0.1"]
    cmd += ["--save", "", "--appendonly", "no"]
    proc = spawn(cmd, dict(os.environ), log)
    wait_port(port)
    return proc


def stop(proc: subprocess.Popen[bytes] | None, timeout: float = 10.0) -> None:
    """SIGTERM to the process group, SIGKILL after ``timeout`` seconds."""
    if proc is None or proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(5)


def children(pid: int) -> list[int]:
    with contextlib.suppress(OSError):
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
        return [int(p) for p in text.split()]
    return []


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by ``pids`` (from /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def machine_busy_seconds() -> float:
    """Busy CPU seconds of the whole machine so far (/proc/stat, all cores)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


# --- figures ---------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The value at rank ``q`` (0..1) of ``values`` (nearest rank; 0.0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def access_log_times(path: Path, method: str, path_suffix: str) -> list[float]:
    """Milliseconds gunicorn spent on each ``method`` request whose path ends in
    ``path_suffix`` (an access log in gunicorn_command's default format)."""
    if not path.exists():
        return []
    times = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[0] == method and parts[1].endswith(path_suffix):
            times.append(int(parts[3]) / 1000)
    return times


def emit(report: dict[str, Any], *, indent: int = 2, keep_as: str | None = None) -> None:
    """Print the report as JSON (and keep a copy as var/bench/``keep_as``)."""
    text = json.dumps(report, indent=indent)
    if keep_as:
        keep(report, keep_as, indent=indent)
    print(text)


def keep(report: dict[str, Any], name: str, *, indent: int = 2) -> None:
    """Write the report as var/bench/``name`` (figures kept before a later step may fail)."""
    VAR.mkdir(parents=True, exist_ok=True)
    (VAR / name).write_text(json.dumps(report, indent=indent))


# --- in-process benchmarks (manage.py bench_*) -------------------------------------


@contextlib.contextmanager
def rolled_back() -> Iterator[None]:
    """A transaction on the default database that is always rolled back: the
    benchmark's generated data never stays behind."""
    from django.db import transaction

    with transaction.atomic():
        try:
            yield
        finally:
            transaction.set_rollback(True)


def timed(work: Callable[[], Any], repeat: int) -> tuple[list[float], list[float], Any]:
    """Run ``work`` ``repeat`` times: wall-clock seconds and this process's CPU
    seconds of each run, and the last run's result."""
    walls: list[float] = []
    cpus: list[float] = []
    result: Any = None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus, result


def spread(seconds: Sequence[float], digits: int = 3, **extra: Any) -> dict[str, Any]:
    """``{"median", "max"}`` of timings, rounded, with ``extra`` keys (a target, the CPU)."""
    return {
        "median": round(statistics.median(seconds), digits),
        "max": round(max(seconds), digits),
        **extra,
    }
