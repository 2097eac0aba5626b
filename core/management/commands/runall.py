"""Start the whole system on one machine: web server, Celery worker and beat.

Used by ``make run`` (this machine only) and ``make venue`` (``--venue``:
every phone on the venue network). Each part runs as a supervised child
process (core/supervisor.py): one that stops is logged and started again,
and never takes the others down. Ctrl-C stops all of them. With no
``REDIS_URL`` the worker uses the file-system broker under ``var/celery``
(config/filebroker.py), so nothing external is needed.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.mail import outgoing_mail
from core.private_paths import private_file, private_folder
from core.supervisor import Child, StartupFailed, Supervisor
from core.venue import is_loopback_url, lan_addresses


class Command(BaseCommand):
    help = "Run the web server, a Celery worker and Celery beat together, supervised."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=None, help="listen address (default 127.0.0.1)")
        parser.add_argument("--port", default="8000")
        parser.add_argument(
            "--venue",
            action="store_true",
            help="listen on every network interface and print the address phones should use",
        )
        parser.add_argument(
            "--address",
            default="",
            help="with --venue: this machine's address on the venue network (default: detected)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        var = private_folder(Path(settings.VAR_DIR))
        private_folder(var / "logs")
        port = str(options["port"])
        venue = bool(options["venue"])
        host = options["host"] or ("0.0.0.0" if venue else "127.0.0.1")  # noqa: S104
        site_url, others = self._site_url(venue=venue, port=port, address=options["address"])
        env = self.child_env(venue=venue, site_url=site_url)
        supervisor = Supervisor(
            self._children(var=var, host=host, port=port),
            cwd=Path(settings.BASE_DIR),
            env=env,
            report=self._report(var / "logs" / "runall.log"),
        )
        stopping = False

        def stop(*_: object) -> None:
            nonlocal stopping
            stopping = True

        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, stop)
        supervisor.start()
        self._banner(site_url=site_url, port=port, venue=venue, others=others, var=var)
        self._accounts(site_url=site_url, venue=venue)
        self._backups_banner()
        try:
            supervisor.run(should_stop=lambda: stopping)
        except StartupFailed as failure:
            raise CommandError(f"{failure} (is port {port} already in use?)") from failure
        finally:
            supervisor.stop()

    @staticmethod
    def child_env(*, venue: bool, site_url: str) -> dict[str, str]:
        """The environment of the web server, worker and beat."""
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "SITE_URL": site_url,
            # An event's pages, not a developer's: error pages in the site's
            # style, no tracebacks on players' phones. DJANGO_DEBUG=1 to debug.
            "DJANGO_DEBUG": os.environ.get("DJANGO_DEBUG", "False"),
        }
        if venue:
            # The demo's passwords are published: never a way in on the venue network.
            env["REFUSE_DEMO_PASSWORDS"] = "True"
        return env

    def _site_url(self, *, venue: bool, port: str, address: str) -> tuple[str, list[str]]:
        """The address printed on score sheets, and other addresses of this machine."""
        configured = os.environ.get("SITE_URL", "")
        if not venue:
            return configured or f"http://127.0.0.1:{port}", []
        found = [address] if address else lan_addresses()
        if configured:
            return configured, found
        if not found:
            self.stderr.write(
                self.style.ERROR(
                    "No network address found: is this machine on the venue Wi-Fi? "
                    "Score sheets will point to 127.0.0.1, which phones cannot open. "
                    "Connect to the network and start again, or pass --address."
                )
            )
            return f"http://127.0.0.1:{port}", []
        return f"http://{found[0]}:{port}", found[1:]

    @staticmethod
    def _children(*, var: Path, host: str, port: str) -> list[Child]:
        python = sys.executable
        logs = var / "logs"
        return [
            Child(
                "web",
                [python, "manage.py", "runserver", f"{host}:{port}", "--noreload"],
                logs / "web.log",
                essential=True,
            ),
            Child(
                "worker",
                [python, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO",
                 "--concurrency=2", "--pool=threads"],
                logs / "worker.log",
            ),
            Child(
                "beat",
                [python, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO",
                 "--schedule", str(var / "celerybeat-schedule")],
                logs / "beat.log",
            ),
        ]  # fmt: skip

    def _report(self, path: Path) -> Any:
        def report(line: str) -> None:
            self.stderr.write(line)
            with open(private_file(path), "a", encoding="utf-8") as log:
                log.write(line + "\n")

        return report

    def _banner(
        self, *, site_url: str, port: str, venue: bool, others: list[str], var: Path
    ) -> None:
        out = self.stdout
        out.write(self.style.SUCCESS(f"\nDM i Partners is running at {site_url}/"))
        if venue:
            out.write(
                f"Phones on the venue network open {site_url}/ — the score sheets' QR codes "
                "carry this address."
            )
            if others:
                out.write("This machine also answers at: " + ", ".join(
                    f"http://{a}:{port}/" for a in others
                ))  # fmt: skip
            self._qr(site_url)
        elif is_loopback_url(site_url):
            out.write(
                "Only this machine can open it. For phones at the venue: make venue "
                "(docs: README, 'At the venue')."
            )
        self._mail_notice(site_url=site_url, venue=venue)
        if not venue:
            out.write(
                "Demo logins, if this is the demo (user / password):\n"
                "  organiser / demo-organiser   (organiser of the demo tournament)\n"
                "  judge     / demo-judge       (judge of the demo tournament)"
            )
        out.write(f"Logs: {var / 'logs'}  ·  Ctrl-C stops everything.\n")

    def _accounts(self, *, site_url: str, venue: bool) -> None:
        """A server without accounts prints its setup code; at the venue, warn about
        demo accounts that still have the published passwords (accounts app)."""
        call_command("setup_code", "--if-no-accounts", "--site-url", site_url, stdout=self.stdout)
        if venue:
            call_command("demo_password_warning", stderr=self.stderr)

    def _mail_notice(self, *, site_url: str, venue: bool) -> None:
        """Where the links in emails point, and where emails go without a mail server."""
        if is_loopback_url(site_url):
            self.stderr.write(
                self.style.ERROR(
                    f"WARNING: emails (sign-up confirmations, private sign-up links) will "
                    f"carry links to {site_url}/, which only this machine can open. Set "
                    "SITE_URL to the site's public address"
                    + ("." if venue else " (or start with make venue on the venue network).")
                )
            )
        kept_in = outgoing_mail().kept_in
        if kept_in:
            self.stdout.write(
                f"Emails: no mail server (EMAIL_URL) is set; each email is kept as a file "
                f"in {kept_in} (readable by this account only)."
            )

    def _qr(self, url: str) -> None:
        """A QR code in the terminal: scan it with a phone to check the network path."""
        import io

        import segno

        text = io.StringIO()
        segno.make(f"{url}/", error="l").terminal(out=text, compact=True)
        self.stdout.write(text.getvalue())

    def _backups_banner(self) -> None:
        """Where the automatic backups go, or why they cannot (the organiser's page says it too)."""
        folder = settings.VENUE_BACKUP_DIR
        if not folder:
            return
        every = f"{settings.VENUE_BACKUP_MINUTES:g}"
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK | os.X_OK):
            self.stdout.write(
                self.style.ERROR(
                    f"Automatic backups: {folder} is missing or not writable (is the USB "
                    "stick in?). Nothing is backed up there until it is."
                )
            )
        else:
            self.stdout.write(
                f"Automatic backups: every {every} minutes to {folder} "
                f"(the newest {settings.VENUE_BACKUP_KEEP} files of each event)."
            )
