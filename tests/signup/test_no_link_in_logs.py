"""No log line carries a sign-up's private link or its email address.

Real log records through the configured logging (core/log_masking.py) into a
real log file, as web.log and worker.log get them under ``make run``.
"""

from __future__ import annotations

import logging
import stat

import pytest
from django.core import mail
from django.test import Client

from core.log_masking import mask_secrets
from signup.services.emails import email_send
from signup.services.links import signup_link, signup_token
from tests.signup.conftest import sign_up

pytestmark = pytest.mark.django_db


@pytest.fixture
def log_file(tmp_path):
    """Every record of every logger, as a file handler writes it."""
    path = tmp_path / "all.log"
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    yield path
    root.removeHandler(handler)
    root.setLevel(level)
    handler.close()


def test_a_sign_up_journey_leaves_no_link_or_address_in_the_log(open_event, log_file, settings):
    settings.SITE_URL = "http://192.168.1.20:8000"
    settings.EMAIL_BACKEND = "core.mail.PrivateFileEmailBackend"
    settings.EMAIL_FILE_PATH = str(log_file.parent / "mail")
    signup = sign_up(open_event, email="kirsten.pedersen@example.dk")
    token = signup_token(signup=signup)
    link = signup_link(signup=signup)
    assert email_send(email_id=signup.emails.get().pk) is True

    client = Client()
    assert client.get(f"/signup/{token}/").status_code == 200
    client.get(f"/signup/{token}/nothing-here/")  # Django's "Not Found: …" line
    # The access line runserver writes for the same request, and a worker's
    # line naming what it sent.
    logging.getLogger("django.server").info('"%s" %s %s', f"GET /signup/{token}/ HTTP/1.1", 200, 9)
    logging.getLogger("celery.app.trace").info("sent %s to %s", link, signup.email)

    text = log_file.read_text(encoding="utf-8")
    assert "Not Found: /signup/[link:" in text and "/signup/[link:" in text
    assert token not in text and signup.link_nonce not in text
    assert "kirsten.pedersen" not in text and "@example.dk" not in text
    assert "Email to 1 recipient(s) kept in" in text

    (kept,) = (log_file.parent / "mail").iterdir()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    message = kept.read_text(encoding="utf-8")
    assert "kirsten.pedersen@example.dk" in message and link in message
    assert mail.outbox == []  # the file backend, not the test outbox, got it


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("GET /reset/MQ/c4h0a2-0123456789abcdef0123/ HTTP/1.1", "c4h0a2-0123456789abcdef0123"),
        ("Not Found: /invitation/Zk3pQ9vLmN2xR7tY8wE1/", "Zk3pQ9vLmN2xR7tY8wE1"),
        ("GET /invite/7:1tXyZa:AbCdEfGhIjKlMnOpQrStUvWxYz0/ 200", "AbCdEfGhIjKlMnOpQrStUvWx"),
        ("GET /consent/42-abc.k3J9sLqP0vXw8ZyTn2MbR4cD/ 302", "k3J9sLqP0vXw8ZyTn2MbR4cD"),
        ("POST /x/?token=s3cr3tValue&lang=da HTTP/1.1", "s3cr3tValue"),
        ("GET /confirm/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b/ 200", "9f86d081884c7d659a2f"),
        ("mail for ole+dm@klub.example.org failed", "ole+dm@klub.example.org"),
    ],
)
def test_other_secret_links_are_masked_wherever_they_come_from(line, secret, caplog):
    caplog.set_level(logging.INFO)
    logging.getLogger("django.request").warning(line)
    logging.getLogger("gunicorn.access").info("%s", line)
    text = "\n".join(record.getMessage() for record in caplog.records)
    assert secret not in text and "[" in text


@pytest.mark.parametrize(
    "line",
    [
        "GET /tournaments/dm-2026-championship-finals/standings/ HTTP/1.1",
        "GET /static/css/site.3f9a1cdeadbe.css HTTP/1.1",
        "task 1b4e28ba-2fa1-11d2-883f-0016d3cca427 succeeded",
        "GET /reset/MQ/set-password/ HTTP/1.1",
        "GET /tournaments/dm/signup/ HTTP/1.1",
    ],
)
def test_ordinary_paths_are_left_readable(line):
    assert mask_secrets(line) == line
