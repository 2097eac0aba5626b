"""Files only their owner may read: backups and hand-over files hold table codes."""

from __future__ import annotations

import os


def write_private(path: str, text: str) -> None:
    """Write ``text`` to ``path`` with mode 0600, also over an existing file."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        os.fchmod(file.fileno(), 0o600)
        file.write(text)


def write_private_atomically(path: str, text: str) -> None:
    """Write a 0600 file under a temporary name, then rename it: a reader (or a
    USB stick pulled out mid-write) never sees half a file under ``path``."""
    temporary = f"{path}.partial"
    write_private(temporary, text)
    with open(temporary, "rb") as file:
        os.fsync(file.fileno())
    os.replace(temporary, path)
