"""runall's supervision (core/supervisor.py) with real child processes."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from core.supervisor import Child, StartupFailed, Supervisor

SLEEPER = [sys.executable, "-c", "import time; time.sleep(120)"]


def _crasher(code: int) -> list[str]:
    return [sys.executable, "-c", f"raise SystemExit({code})"]


def _supervisor(tmp_path: Path, children: list[Child], lines: list[str], **kwargs) -> Supervisor:  # type: ignore[no-untyped-def]
    return Supervisor(children, cwd=tmp_path, env=dict(os.environ), report=lines.append, **kwargs)


def _poll_until(supervisor: Supervisor, predicate, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        supervisor.poll()
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError("condition not reached")


def test_a_killed_worker_is_started_again_and_the_web_server_keeps_running(tmp_path):
    web = Child("web", SLEEPER, tmp_path / "web.log", essential=True)
    worker = Child("worker", SLEEPER, tmp_path / "worker.log")
    lines: list[str] = []
    supervisor = _supervisor(tmp_path, [web, worker], lines, backoff=(0.05,))
    supervisor.start()
    try:
        web_pid, worker_pid = web.proc.pid, worker.proc.pid
        os.kill(worker_pid, signal.SIGKILL)
        _poll_until(supervisor, lambda: worker.proc is not None and worker.proc.pid != worker_pid)
        assert web.proc.pid == web_pid and web.proc.poll() is None
        assert worker.proc.poll() is None
        assert any("worker stopped (killed by SIGKILL)" in line for line in lines)
        assert any(f"worker started again (pid {worker.proc.pid})" in line for line in lines)
    finally:
        supervisor.stop()
    assert web.proc.poll() is not None and worker.proc.poll() is not None


def test_a_web_server_that_cannot_start_stops_the_supervisor_with_the_reason(tmp_path):
    web = Child("web", _crasher(1), tmp_path / "web.log", essential=True)
    beat = Child("beat", SLEEPER, tmp_path / "beat.log")
    supervisor = _supervisor(tmp_path, [web, beat], [])
    supervisor.start()
    try:
        with pytest.raises(StartupFailed, match=r"web stopped right after starting \(exit code"):
            _poll_until(supervisor, lambda: False)
    finally:
        supervisor.stop()
    assert beat.proc.poll() is not None


def test_a_web_server_that_dies_later_is_started_again(tmp_path):
    web = Child("web", SLEEPER, tmp_path / "web.log", essential=True)
    lines: list[str] = []
    supervisor = _supervisor(tmp_path, [web], lines, backoff=(0.05,), startup_grace=0.0)
    supervisor.start()
    try:
        first = web.proc.pid
        os.kill(first, signal.SIGKILL)
        _poll_until(supervisor, lambda: web.proc is not None and web.proc.pid != first)
        assert web.starts == 2
    finally:
        supervisor.stop()


def test_a_child_that_keeps_crashing_waits_longer_each_time(tmp_path):
    beat = Child("beat", _crasher(2), tmp_path / "beat.log")
    lines: list[str] = []
    supervisor = _supervisor(tmp_path, [beat], lines, backoff=(0.05, 0.1, 0.2))
    supervisor.start()
    try:
        _poll_until(supervisor, lambda: beat.starts >= 5)
    finally:
        supervisor.stop()
    assert _waits(lines)[:4] == ["0.05", "0.1", "0.2", "0.2"]
    assert all("exit code 2" in line for line in lines if "stopped" in line)


def test_a_child_that_ran_long_enough_starts_again_after_the_shortest_wait(tmp_path):
    worker = Child(
        "worker", [sys.executable, "-c", "import time; time.sleep(0.3)"], tmp_path / "w.log"
    )
    lines: list[str] = []
    supervisor = _supervisor(tmp_path, [worker], lines, backoff=(0.05, 5.0), stable_after=0.2)
    supervisor.start()
    try:
        _poll_until(supervisor, lambda: worker.starts >= 3)
    finally:
        supervisor.stop()
    assert _waits(lines)[:2] == ["0.05", "0.05"]


def _waits(lines: list[str]) -> list[str]:
    return [line.split("again in ")[1].split(" s")[0] for line in lines if "again in" in line]
