"""Security headers, production settings (`check --deploy`) and templates without inline code."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

ROOT = Path(settings.BASE_DIR)

_PROD_PROBE = """
import json, django
django.setup()
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from io import StringIO
out = StringIO()
call_command("check", deploy=True, fail_level="WARNING", stdout=out, stderr=out)
res = Client().get("/login/", secure=True, HTTP_HOST="dm.example.org")
print(json.dumps({
    "check": out.getvalue(),
    "status": res.status_code,
    "headers": dict(res.headers),
    "csrf_cookie_secure": bool(res.cookies["csrftoken"]["secure"]),
    "session_cookie_secure": settings.SESSION_COOKIE_SECURE,
    "session_cookie_httponly": settings.SESSION_COOKIE_HTTPONLY,
    "plain_http": Client().get("/login/", HTTP_HOST="dm.example.org").status_code,
}))
"""


@pytest.fixture(scope="module")
def production(tmp_path_factory):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "dm.example.org",
        "VAR_DIR": str(tmp_path_factory.mktemp("prodvar")),
    }
    env.pop("DATABASE_URL", None)
    # The browser tests allow Django's ORM inside Playwright's event loop for
    # the test process; a production process never has that switch.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    done = subprocess.run(
        [sys.executable, "-c", _PROD_PROBE],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_check_deploy_is_clean_with_production_settings(production):
    assert "no issues" in production["check"], production["check"]


def test_production_sends_hsts_frame_denial_and_secure_cookies(production):
    headers = production["headers"]
    assert production["status"] == 200
    assert "max-age=31536000" in headers["Strict-Transport-Security"]
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert production["csrf_cookie_secure"] and production["session_cookie_secure"]
    assert production["session_cookie_httponly"]
    assert production["plain_http"] == 301  # redirected to https


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/login/", "/t/", "/api/schema/", "/api/docs/"])
def test_every_response_has_a_strict_csp(path):
    res = Client().get(path)
    csp = res["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "frame-ancestors 'none'" in csp
    assert res["X-Frame-Options"] == "DENY"


_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
_INLINE_HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)
_INLINE_STYLE = re.compile(r"<[^>]*\sstyle\s*=|<style[\s>]", re.I)


def _templates() -> list[Path]:
    dirs = [ROOT / "templates", *ROOT.glob("*/templates")]
    return [p for d in dirs for p in d.rglob("*.html") if ".venv" not in p.parts]


def test_no_template_has_inline_script_style_or_event_handlers():
    found = []
    for path in _templates():
        text = path.read_text()
        for pattern in (_INLINE_SCRIPT, _INLINE_HANDLER, _INLINE_STYLE):
            name = path.relative_to(ROOT)
            found += [f"{name}: {m.group(0)[:80]}" for m in pattern.finditer(text)]
    assert len(_templates()) > 20
    assert not found, "inline code breaks the CSP:\n" + "\n".join(found)
