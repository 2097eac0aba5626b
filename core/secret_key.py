"""The secret key of an installation on the embedded default.

Everything signed (sessions, the login device cookie, sign-up links, the
table tokens printed in QR codes) rests on ``SECRET_KEY``. A key written in
the source would let anyone forge them on a laptop that ``make venue``
exposes to the venue Wi-Fi, so each installation makes its own: a random key
in ``var/secret_key`` (file 0600, folder 0700), made once by
``python -m core.secret_key`` (``make migrate``, which ``make run`` and
``make venue`` run first) and read by the settings on every later start.
Loading the settings creates nothing: without ``DJANGO_SECRET_KEY`` and
without the file they refuse to start and say how to make one.

``DJANGO_SECRET_KEY`` in the environment always wins (production). A
rotation keeps the earlier keys in ``var/secret_key.fallbacks`` (one a line,
``python -m core.secret_key --rotate``), read as ``SECRET_KEY_FALLBACKS``
after those of ``DJANGO_SECRET_KEY_FALLBACKS``.

Nothing here needs Django's settings: it runs before they can load.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from core.private_paths import private_file, private_folder

KEY_FILE = "secret_key"
FALLBACKS_FILE = "secret_key.fallbacks"
_KEY_BYTES = 48


class NoSecretKey(ImproperlyConfigured):
    """Neither ``DJANGO_SECRET_KEY`` nor the installation's key file."""


def new_key() -> str:
    return secrets.token_urlsafe(_KEY_BYTES)


def _write_new(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` if it does not exist yet (0600); False if it did."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(text + "\n")
    return True


def ensure_secret_key(var_dir: Path) -> Path:
    """The installation's key file, made once (random, 0600 in a 0700 folder).

    Idempotent and safe when two processes race: the file is created
    exclusively, and an existing key is never replaced.
    """
    private_folder(var_dir)
    path = var_dir / KEY_FILE
    _write_new(path, new_key())
    private_file(path)
    return path


def rotate_secret_key(var_dir: Path) -> Path:
    """A new key; the current one joins the fallbacks (sessions and links stay valid)."""
    path = ensure_secret_key(var_dir)
    old = path.read_text(encoding="ascii").strip()
    fallbacks = private_file(var_dir / FALLBACKS_FILE)
    with open(fallbacks, "a", encoding="ascii") as out:
        out.write(old + "\n")
    fresh = var_dir / f"{KEY_FILE}.new"
    fresh.unlink(missing_ok=True)
    _write_new(fresh, new_key())
    fresh.replace(path)
    return path


def read_secret_key(var_dir: Path) -> str:
    """The installation's key; ``NoSecretKey`` with the remedy when there is none."""
    path = var_dir / KEY_FILE
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        key = ""
    if not key:
        raise NoSecretKey(
            f"No secret key: DJANGO_SECRET_KEY is not set and {path} does not exist. "
            "Run `make migrate` (make run and make venue do it), or "
            "`python -m core.secret_key`, to give this installation its own random "
            "key; in production set DJANGO_SECRET_KEY (docs/operations.md)."
        )
    return key


def read_fallbacks(var_dir: Path) -> list[str]:
    """Earlier keys of this installation, newest first."""
    try:
        lines = (var_dir / FALLBACKS_FILE).read_text(encoding="ascii").split()
    except FileNotFoundError:
        return []
    return list(reversed(lines))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m core.secret_key",
        description="Make this installation's random secret key (once) under VAR_DIR.",
    )
    parser.add_argument(
        "--rotate", action="store_true", help="new key; the current one becomes a fallback"
    )
    options = parser.parse_args(argv)
    default = Path(__file__).resolve().parent.parent / "var"
    var_dir = Path(os.environ.get("VAR_DIR") or default)
    if options.rotate:
        path = rotate_secret_key(var_dir)
        print(f"New secret key in {path}; the previous one is in {var_dir / FALLBACKS_FILE}.")
    else:
        ensure_secret_key(var_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
