"""After a sign-up journey on ``make run``'s processes, no log holds a link or an address.

What ``make run`` starts, in a fresh ``VAR_DIR`` without ``DJANGO_SECRET_KEY``:
the installation's key is made (``python -m core.secret_key``), the database
migrated, ``runall`` started. A pair signs up through the public page, opens
its private link and mistypes it; the worker "sends" the confirmation (no
mail server: a file in var/mail). Then every log file is scanned, and the
modes of var/, its logs, the key and the mail are checked.
"""

from __future__ import annotations

import http.cookiejar
import os
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EMAIL = "kirsten.pedersen@example.dk"
SETUP = (
    "import datetime; from django.utils import timezone; "
    "from tournament.models import Tournament; "
    "Tournament.objects.create(name='Logtest', slug='logtest', date=datetime.date(2026, 12, 5), "
    "signup_closes_at=timezone.now() + datetime.timedelta(days=3), signup_capacity=8, "
    "published=True)"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(predicate, timeout: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.3)
    raise AssertionError(f"timed out: {what}")


def _up(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/health/", timeout=5):
            return True
    except (urllib.error.URLError, OSError):
        return False


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_no_log_holds_a_sign_up_link_or_address(tmp_path):
    var = tmp_path / "var"
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "SITE_URL", "EMAIL_URL")
        and not key.startswith("DJANGO_SECRET_KEY")
    }
    env.update(VAR_DIR=str(var), DJANGO_SETTINGS_MODULE="config.settings.local")
    for argv in (
        ["-m", "core.secret_key"],
        ["manage.py", "migrate", "--noinput"],
        ["manage.py", "shell", "-c", SETUP],
    ):
        done = subprocess.run(
            [sys.executable, *argv], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr[-3000:]

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    runall = subprocess.Popen(
        [sys.executable, "manage.py", "runall", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        _wait(lambda: _up(base), 60, "the web server")
        jar = http.cookiejar.CookieJar()
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        with browser.open(base + "/tournaments/logtest/signup/", timeout=30) as page:
            assert page.status == 200
        csrf = next(c.value for c in jar if c.name == "csrftoken")
        form = {
            "player_1": "Kirsten Pedersen",
            "player_2": "Ole Hansen",
            "email": EMAIL,
            "consent": "on",
            "client_id": "journey-1",
            "csrfmiddlewaretoken": csrf,
        }
        request = urllib.request.Request(
            base + "/tournaments/logtest/signup/",
            data=urllib.parse.urlencode(form).encode(),
            headers={"Referer": base + "/tournaments/logtest/signup/"},
        )
        no_redirect = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(jar), _NoRedirect()
        )
        with pytest.raises(urllib.error.HTTPError) as answer:
            no_redirect.open(request, timeout=30)
        assert answer.value.code == 302
        own = answer.value.headers["Location"]
        token = own.rstrip("/").rsplit("/", 1)[-1]
        assert own.startswith("/signup/") and len(token) > 20
        with browser.open(base + own, timeout=30) as page:
            assert page.status == 200
        with pytest.raises(urllib.error.HTTPError) as missing:
            browser.open(base + own + "nothing/", timeout=30)
        assert missing.value.code == 404
        _wait(lambda: any((var / "mail").glob("*.eml")), 60, "the confirmation email")
    finally:
        runall.send_signal(signal.SIGINT)
        try:
            output, _ = runall.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(runall.pid, signal.SIGKILL)
            output, _ = runall.communicate()

    assert "WARNING: emails" in output and f"kept as a file in {var / 'mail'}" in output
    logs = sorted((var / "logs").glob("*.log"))
    assert {log.name for log in logs} >= {"web.log", "worker.log", "beat.log"}
    text = "\n".join(log.read_text(encoding="utf-8") for log in logs)
    assert "/signup/[link:" in text and "Not Found: /signup/[link:" in text
    assert "Email to 1 recipient(s) kept in" in text
    assert token not in text and EMAIL not in text and "@example.dk" not in text
    for log in logs:
        assert _mode(log) == 0o600, log
    assert _mode(var) == _mode(var / "logs") == _mode(var / "mail") == 0o700
    assert _mode(var / "secret_key") == 0o600
    (kept,) = (var / "mail").glob("*.eml")
    assert _mode(kept) == 0o600
    message = kept.read_text(encoding="utf-8")
    assert EMAIL in message and f"{base}/signup/{token}/" in message
