"""The table device's offline copy: what its service worker keeps, and the copy's version.

The table page (``/t/<token>/``) registers ``/t/sw.js`` (scope ``/t/``). The
worker keeps the table page the device itself opened and the static files
that page loads, so a reload or the QR link opened again without network
shows the board (docs/move-log.md "Offline reload"). Which static files: the
page's stylesheets and script entry points, and every module they import,
found by reading the files (an ``import`` added to a table script is kept
without a list to update). The version is a hash of those files' contents:
a deploy that changes one changes the worker's text, the browser installs
the new worker and it drops the old copies.
"""

from __future__ import annotations

import hashlib
import posixpath
import re

from django.contrib.staticfiles import finders
from django.templatetags.static import static

# What templates/base.html and templates/games/table.html load.
ENTRY_FILES = (
    "css/site.css",
    "css/games.css",
    "css/judge.css",
    "favicon.svg",
    "apple-touch-icon.png",
    "js/table/main.js",
    "js/clock.js",
    "js/judge_call.js",
)
_IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^'"`;]*?['"](\.{1,2}/[^'"]+\.js)['"]""", re.MULTILINE
)


def _read(name: str) -> bytes:
    found = finders.find(name)
    if not found:
        raise FileNotFoundError(name)
    path = found[0] if isinstance(found, list) else found
    with open(path, "rb") as handle:
        return handle.read()


def offline_files() -> dict[str, bytes]:
    """Every static file the table page needs, by its static name, with its contents."""
    files: dict[str, bytes] = {}
    todo = list(ENTRY_FILES)
    while todo:
        name = todo.pop(0)
        if name in files:
            continue
        files[name] = _read(name)
        if name.endswith(".js"):
            text = files[name].decode("utf-8")
            for relative in _IMPORT.findall(text):
                todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(name), relative)))
    return files


def offline_manifest() -> dict[str, object]:
    """The worker's data: the static URLs to keep and the version of that set."""
    files = offline_files()
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return {"version": digest.hexdigest()[:16], "assets": [static(name) for name in sorted(files)]}
