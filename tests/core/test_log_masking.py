"""No log line carries a table token or a short code (core/log_masking.py)."""

from __future__ import annotations

import logging

import pytest
from django.test import Client
from gunicorn.config import Config
from gunicorn.glogging import SafeAtoms

from core.log_masking import mask_secrets
from games.services.tokens import game_token, token_hash
from tests.factories import GameFactory

TOKEN = "o4jIeQPfjQb6hspsa_gGp8dt"


def _messages(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(record.getMessage() for record in caplog.records)


def test_mask_secrets_tags_tokens_and_hides_codes():
    tag = f"[token:{token_hash(TOKEN)[:6]}]"
    assert mask_secrets(f"GET /t/{TOKEN}/ HTTP/1.1") == f"GET /t/{tag}/ HTTP/1.1"
    assert mask_secrets(f"/api/table/{TOKEN}/state/?tail=20") == f"/api/table/{tag}/state/?tail=20"
    assert mask_secrets("GET /t/?code=AB2C3D HTTP/1.1") == "GET /t/?code=[masked] HTTP/1.1"
    assert mask_secrets("/t/?lang=da&code=ab2c3d") == "/t/?lang=da&code=[masked]"
    assert (
        mask_secrets("GET /tournaments/dm/standings/ 200") == "GET /tournaments/dm/standings/ 200"
    )


@pytest.mark.django_db
def test_not_found_and_server_error_lines_carry_no_token(caplog, monkeypatch):
    token = game_token(game=GameFactory())
    caplog.set_level(logging.INFO)
    Client().get(f"/api/table/{token}/nothing-here/")

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("games.api.TableStateView.get", broken)
    Client(raise_request_exception=False).get(f"/api/table/{token}/state/")
    text = _messages(caplog)
    tag = f"[token:{token_hash(token)[:6]}]"
    assert f"Not Found: /api/table/{tag}/nothing-here/" in text
    assert f"Internal Server Error: /api/table/{tag}/state/" in text
    assert token not in text


def test_runserver_access_lines_carry_no_token_or_code(caplog):
    caplog.set_level(logging.INFO, logger="django.server")
    server = logging.getLogger("django.server")
    server.info('"%s" %s %s', f"GET /t/{TOKEN}/ HTTP/1.1", "200", "5120")
    server.info('"%s" %s %s', "GET /t/?code=AB2C3D HTTP/1.1", "302", "0")
    text = _messages(caplog)
    assert TOKEN not in text and "AB2C3D" not in text
    assert "/t/?code=[masked]" in text


def test_gunicorn_access_lines_carry_no_token(caplog):
    caplog.set_level(logging.INFO, logger="gunicorn.access")
    fmt = Config().access_log_format
    atoms = SafeAtoms(
        {
            "h": "10.0.0.9",
            "r": f"POST /api/table/{TOKEN}/entries/ HTTP/1.1",
            "U": f"/api/table/{TOKEN}/entries/",
            "q": "",
            "s": "201",
            "b": "812",
            "f": f"https://dm.example/t/{TOKEN}/",
            "a": "phone",
            "t": "[26/Nov/2026:10:00:00 +0100]",
        }
    )
    # What gunicorn.glogging.Logger.access does with a request's atoms.
    logging.getLogger("gunicorn.access").info(fmt, atoms)
    text = _messages(caplog)
    assert TOKEN not in text
    assert "POST /api/table/[token:" in text
