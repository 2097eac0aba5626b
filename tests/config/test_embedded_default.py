"""The embedded default (no DATABASE_URL / REDIS_URL) starts in a folder that does not exist yet.

``VAR_DIR`` may name a new folder (a fresh checkout, a second event on the
same machine). Every command must work there at once, although SQLite
cannot create its file in a missing folder; and loading the settings alone
creates nothing (core/sqlite makes the folder on the first connection).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _embedded_env(var: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(VAR_DIR=str(var), DJANGO_SETTINGS_MODULE="config.settings.local")
    return env


def test_loading_the_settings_creates_no_folder(tmp_path):
    var = tmp_path / "new" / "var"
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=_embedded_env(var),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert not var.exists()


def test_a_database_command_works_in_a_new_var_folder(tmp_path):
    var = tmp_path / "fresh"
    done = subprocess.run(
        [sys.executable, "manage.py", "showmigrations", "tournament"],
        cwd=ROOT,
        env=_embedded_env(var),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "[ ] 0001_initial" in done.stdout
    assert (var / "dmpartners.sqlite3").exists()
