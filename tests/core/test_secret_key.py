"""Each installation signs with its own random key, made once and kept.

The key that used to be written in the settings is public: a device cookie
signed with it must be no device, so the login limit holds.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core import signing
from django.test import Client

from core.ratelimit import DEVICE_COOKIE, LOGIN_PER_IP, _username_key
from core.secret_key import (
    FALLBACKS_FILE,
    KEY_FILE,
    ensure_secret_key,
    read_fallbacks,
    read_secret_key,
    rotate_secret_key,
)
from tests.factories import UserFactory

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED_KEY = "dev-only-insecure-key-change-me"
PRINT_KEYS = (
    "import django; django.setup(); from django.conf import settings; "
    "print(settings.SECRET_KEY); print(','.join(settings.SECRET_KEY_FALLBACKS))"
)


def _embedded_env(var: Path, **extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "DJANGO_SETTINGS_MODULE")
        and key != "DJANGO_SECRET_KEY_FALLBACKS"
    }
    env.update(VAR_DIR=str(var), DJANGO_SETTINGS_MODULE="config.settings.local", **extra)
    return env


def _run(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def _settings_keys(var: Path, **extra: str) -> tuple[str, str]:
    done = _run([sys.executable, "-c", PRINT_KEYS], _embedded_env(var, **extra))
    assert done.returncode == 0, done.stderr
    key, fallbacks = done.stdout.splitlines()[-2:]
    return key, fallbacks


def _make_key(var: Path) -> None:
    done = _run([sys.executable, "-m", "core.secret_key"], _embedded_env(var))
    assert done.returncode == 0, done.stderr


def test_two_installations_get_different_keys_kept_across_restarts(tmp_path):
    first, second = tmp_path / "one" / "var", tmp_path / "two" / "var"
    _make_key(first)
    _make_key(second)
    key_one, _ = _settings_keys(first)
    key_two, _ = _settings_keys(second)
    assert key_one != key_two
    assert len(key_one) >= 50 and PUBLISHED_KEY not in (key_one, key_two)
    # A later start (make run again) keeps the key: the file is never replaced.
    _make_key(first)
    assert _settings_keys(first)[0] == key_one
    assert stat.S_IMODE((first / KEY_FILE).stat().st_mode) == 0o600
    assert stat.S_IMODE(first.stat().st_mode) == 0o700


def test_the_environment_key_wins(tmp_path):
    var = tmp_path / "var"
    _make_key(var)
    assert _settings_keys(var, DJANGO_SECRET_KEY="from-the-environment-" + "k" * 40)[0] == (
        "from-the-environment-" + "k" * 40
    )


def test_without_a_key_the_settings_refuse_to_start_and_say_how_to_make_one(tmp_path):
    var = tmp_path / "var"
    done = _run([sys.executable, "manage.py", "check"], _embedded_env(var))
    assert done.returncode != 0
    assert "No secret key" in done.stderr and "make migrate" in done.stderr
    assert not var.exists()  # loading the settings created nothing


def test_a_loose_key_file_is_made_private_again(tmp_path):
    var = tmp_path / "var"
    var.mkdir(mode=0o755)
    (var / KEY_FILE).write_text("k" * 60 + "\n")
    (var / KEY_FILE).chmod(0o644)
    ensure_secret_key(var)
    assert read_secret_key(var) == "k" * 60
    assert stat.S_IMODE((var / KEY_FILE).stat().st_mode) == 0o600
    assert stat.S_IMODE(var.stat().st_mode) == 0o700


def test_rotation_keeps_the_old_key_as_a_fallback(tmp_path):
    var = tmp_path / "var"
    ensure_secret_key(var)
    old = read_secret_key(var)
    rotate_secret_key(var)
    new = read_secret_key(var)
    assert new != old and read_fallbacks(var) == [old]
    assert stat.S_IMODE((var / FALLBACKS_FILE).stat().st_mode) == 0o600
    key, fallbacks = _settings_keys(var)
    assert (key, fallbacks) == (new, old)
    # A value signed under the old key still opens after the rotation.
    signed = signing.dumps("a session", key=old)
    assert signing.loads(signed, key=new, fallback_keys=[old]) == "a session"


def test_the_published_key_is_in_use_nowhere():
    assert PUBLISHED_KEY not in (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS)
    for folder in ("config", "core", "tournament", "signup", "bench"):
        for source in (ROOT / folder).rglob("*.py"):
            assert PUBLISHED_KEY not in source.read_text(encoding="utf-8"), source


def _forged_trusted_cookie(*, key: str, device: str, username: str) -> str:
    payload = {"id": device, "users": [_username_key(username)]}
    return signing.dumps(payload, key=key, salt="core.ratelimit.login-device")


def _guess_with_forged_devices(key: str, tries: int) -> list[int]:
    answers = []
    for n in range(tries):
        attacker = Client()
        cookie = _forged_trusted_cookie(key=key, device=f"forged-{n}", username="organiser")
        attacker.cookies[DEVICE_COOKIE] = cookie
        answer = attacker.post(
            "/login/", {"username": "organiser", "password": "wrong"}, REMOTE_ADDR="10.0.0.9"
        )
        answers.append(answer.status_code)
    return answers


@pytest.mark.django_db
def test_a_device_cookie_signed_with_the_published_key_is_not_trusted():
    UserFactory(username="organiser")
    answers = _guess_with_forged_devices(PUBLISHED_KEY, LOGIN_PER_IP.limit + 3)
    assert 429 in answers
    assert answers.index(429) <= LOGIN_PER_IP.limit


@pytest.mark.django_db
def test_whoever_holds_the_key_could_forge_trust_which_is_why_it_must_be_secret():
    UserFactory(username="organiser")
    assert 429 not in _guess_with_forged_devices(settings.SECRET_KEY, LOGIN_PER_IP.limit + 3)
