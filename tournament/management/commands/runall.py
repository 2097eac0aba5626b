"""Start the whole system on one machine: web server, Celery worker and beat.

Used by ``make run``. Each part runs as a child process; Ctrl-C stops all of
them. With no ``REDIS_URL`` the worker uses the file-system broker under
``var/celery`` so nothing external is needed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Run the web server, a Celery worker and Celery beat together."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", default="8000")

    def handle(self, *args: object, **options: str) -> None:
        var = Path(settings.VAR_DIR)
        for sub in ("celery/queue", "celery/processed", "logs"):
            (var / sub).mkdir(parents=True, exist_ok=True)
        python = sys.executable
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        commands = {
            "web": [
                python,
                "manage.py",
                "runserver",
                f"{options['host']}:{options['port']}",
                "--noreload",
            ],
            "worker": [
                python,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--loglevel=INFO",
                "--concurrency=2",
                "--pool=threads",
            ],
            "beat": [
                python,
                "-m",
                "celery",
                "-A",
                "config",
                "beat",
                "--loglevel=INFO",
                "--schedule",
                str(var / "celerybeat-schedule"),
            ],
        }
        procs: dict[str, subprocess.Popen[bytes]] = {}
        for name, cmd in commands.items():
            log = open(var / "logs" / f"{name}.log", "ab")  # noqa: SIM115 - lives as long as the child
            procs[name] = subprocess.Popen(  # noqa: S603
                cmd, cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        url = f"http://{options['host']}:{options['port']}/"
        self.stdout.write(self.style.SUCCESS(f"\nDM i Partners is running at {url}"))
        self.stdout.write(
            "Demo logins (user / password):\n"
            "  organiser / demo-organiser   (organiser of the demo tournament, admin at /admin/)\n"
            "  judge     / demo-judge       (judge of the demo tournament)\n"
            f"Logs: {var / 'logs'}  ·  Ctrl-C stops everything.\n"
        )
        stopping = False

        def stop(*_: object) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            while not stopping:
                for name, proc in procs.items():
                    if proc.poll() is not None:
                        self.stderr.write(
                            f"{name} stopped (exit {proc.returncode}); see var/logs/{name}.log"
                        )
                        stopping = True
                time.sleep(0.5)
        finally:
            for proc in procs.values():
                if proc.poll() is None:
                    proc.terminate()
            for proc in procs.values():
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
