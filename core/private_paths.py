"""Folders and files only their owner can read: secrets, logs, mail.

On the embedded default, ``var/`` holds the secret key, the database, the
logs (which carry addresses and names) and the organiser's mail: a folder
0700 and files 0600, so another account on the laptop reads none of it.
Standard library only: the secret key is made before Django is set up.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def private_folder(path: Path) -> Path:
    """``path`` as a folder only its owner can enter (0700), made if missing."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if stat.S_IMODE(path.stat().st_mode) != 0o700:
        path.chmod(0o700)
    return path


def private_file(path: Path) -> Path:
    """``path`` as a file only its owner can read (0600), made empty if missing."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    if stat.S_IMODE(path.stat().st_mode) != 0o600:
        path.chmod(0o600)
    return path
