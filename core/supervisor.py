"""Keep ``make run``'s processes alive: web server, Celery worker, Celery beat.

One laptop carries a club event, so one dead part must never take the
others down: a child that exits is logged and started again after a short
back-off (1, 2, 4 … 30 s; back to 1 s once it has run for a minute). The one
exception is the web server failing within seconds of its *first* start:
that is a setting (a port already in use), not a crash, and restarting it
forever would hide the reason, so the supervisor gives up and says so.

Production runs each part under systemd or containers instead
(docs/operations.md); docs/decisions.md says why this is not supervisord.
"""

from __future__ import annotations

import datetime
import os
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from core.private_paths import private_file

BACKOFF_S = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0)
STABLE_AFTER_S = 60.0
STARTUP_GRACE_S = 5.0
STOP_TIMEOUT_S = 10.0


class StartupFailed(RuntimeError):
    """An essential child exited right after its first start."""


@dataclass
class Child:
    name: str
    argv: Sequence[str]
    log_path: Path
    # Essential: if it cannot even start, there is no point running the rest.
    essential: bool = False
    proc: subprocess.Popen[bytes] | None = None
    log: IO[bytes] | None = None
    started_at: float = 0.0
    starts: int = 0
    crashes_in_a_row: int = 0
    restart_at: float | None = None


def _describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class Supervisor:
    def __init__(
        self,
        children: Sequence[Child],
        *,
        cwd: Path,
        env: dict[str, str],
        report: Callable[[str], None],
        clock: Callable[[], float] = time.monotonic,
        backoff: Sequence[float] = BACKOFF_S,
        stable_after: float = STABLE_AFTER_S,
        startup_grace: float = STARTUP_GRACE_S,
    ) -> None:
        self.children = list(children)
        self.cwd = cwd
        self.env = env
        self.report = report
        self.clock = clock
        self.backoff = backoff
        self.stable_after = stable_after
        self.startup_grace = startup_grace

    def _say(self, text: str) -> None:
        stamp = datetime.datetime.now().astimezone().strftime("%H:%M:%S")
        self.report(f"[{stamp}] {text}")

    def _start(self, child: Child) -> None:
        if child.log is None:
            # 0600: the logs carry names and addresses (core/private_paths.py).
            child.log = open(private_file(child.log_path), "ab")  # noqa: SIM115 - lives as long as the child
        # A session of its own: Ctrl-C in the terminal reaches the supervisor,
        # which stops the children in order instead of all dying at once.
        child.proc = subprocess.Popen(  # noqa: S603
            list(child.argv),
            cwd=self.cwd,
            env=self.env,
            stdout=child.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        child.started_at = self.clock()
        child.starts += 1
        child.restart_at = None
        if child.starts > 1:
            self._say(f"{child.name} started again (pid {child.proc.pid})")

    def start(self) -> None:
        for child in self.children:
            self._start(child)

    def poll(self) -> None:
        """One round of supervision: notice exits, restart what is due."""
        now = self.clock()
        for child in self.children:
            if child.proc is not None and child.proc.poll() is not None:
                self._exited(child, now)
            if child.proc is None and child.restart_at is not None and now >= child.restart_at:
                self._start(child)

    def _exited(self, child: Child, now: float) -> None:
        assert child.proc is not None
        code = child.proc.returncode
        ran = now - child.started_at
        child.proc = None
        if child.essential and child.starts == 1 and ran < self.startup_grace:
            raise StartupFailed(
                f"{child.name} stopped right after starting ({_describe_exit(code)}); "
                f"see {child.log_path}"
            )
        child.crashes_in_a_row = 1 if ran >= self.stable_after else child.crashes_in_a_row + 1
        delay = self.backoff[min(child.crashes_in_a_row, len(self.backoff)) - 1]
        child.restart_at = now + delay
        self._say(
            f"{child.name} stopped ({_describe_exit(code)}) after {ran:.0f} s; "
            f"starting it again in {delay:g} s. Log: {child.log_path}"
        )

    def run(self, *, should_stop: Callable[[], bool], interval: float = 0.5) -> None:
        while not should_stop():
            self.poll()
            time.sleep(interval)

    def stop(self, timeout: float = STOP_TIMEOUT_S) -> None:
        running = [c.proc for c in self.children if c.proc is not None and c.proc.poll() is None]
        for proc in running:
            proc.terminate()
        deadline = time.monotonic() + timeout
        for proc in running:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        for child in self.children:
            if child.log is not None:
                child.log.close()
                child.log = None
