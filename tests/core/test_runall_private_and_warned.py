"""runall keeps var/ and its logs private, and warns when emails would carry 127.0.0.1.

The supervisor is replaced by one that starts nothing: these tests look at
what runall prepares and prints, not at the children (tests/core/test_supervisor.py).
"""

from __future__ import annotations

import io
import signal
import stat

import pytest
from django.core.management import call_command

from core.supervisor import Child, Supervisor

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class StartsNothing:
    def __init__(self, children: list[Child], *, report, **_: object) -> None:  # type: ignore[no-untyped-def]
        self.report = report

    def start(self) -> None:
        self.report("web started")

    def run(self, *, should_stop) -> None:  # type: ignore[no-untyped-def]
        pass

    def stop(self) -> None:
        pass


@pytest.fixture
def runall(tmp_path, settings, monkeypatch, db):  # type: ignore[no-untyped-def]
    settings.VAR_DIR = tmp_path / "var"
    settings.EMAIL_BACKEND = "core.mail.PrivateFileEmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path / "var" / "mail")
    monkeypatch.setattr("core.management.commands.runall.Supervisor", StartsNothing)
    monkeypatch.delenv("SITE_URL", raising=False)
    handlers = {sig: signal.getsignal(sig) for sig in SIGNALS}

    def run(*args: str) -> tuple[str, str]:
        out, err = io.StringIO(), io.StringIO()
        call_command("runall", *args, stdout=out, stderr=err)
        return out.getvalue(), err.getvalue()

    yield run
    for sig, handler in handlers.items():
        signal.signal(sig, handler)


def _mode(path) -> int:  # type: ignore[no-untyped-def]
    return stat.S_IMODE(path.stat().st_mode)


def test_var_and_its_logs_are_private(runall, settings):
    var = settings.VAR_DIR
    var.mkdir(mode=0o755)
    (var / "logs").mkdir(mode=0o755)
    (var / "logs" / "runall.log").write_text("from an older start\n")
    (var / "logs" / "runall.log").chmod(0o644)
    runall("--port", "8123")
    assert _mode(var) == 0o700 and _mode(var / "logs") == 0o700
    assert _mode(var / "logs" / "runall.log") == 0o600
    assert "web started" in (var / "logs" / "runall.log").read_text()


def test_the_supervisors_logs_are_made_private(tmp_path):
    old = tmp_path / "worker.log"
    old.write_text("from an older start\n")
    old.chmod(0o644)
    children = [Child("worker", ["true"], old), Child("beat", ["true"], tmp_path / "beat.log")]
    supervisor = Supervisor(children, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"}, report=print)
    supervisor.start()
    supervisor.stop()
    assert _mode(old) == 0o600 and _mode(tmp_path / "beat.log") == 0o600


def test_a_loopback_address_is_a_loud_warning_about_emails(runall, settings):
    out, err = runall("--port", "8123")
    assert "WARNING: emails" in err and "http://127.0.0.1:8123/" in err
    assert "make venue" in err
    assert f"kept as a file in {settings.VAR_DIR / 'mail'}" in out


def test_a_public_address_gives_no_warning(runall, monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://dm.example")
    out, err = runall("--port", "8123", "--venue")
    assert "WARNING: emails" not in err
    assert "https://dm.example/" in out
