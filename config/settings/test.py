"""Test settings: fast hashing; the database and Redis come from the environment."""

import os
import re
import secrets

# Parallel test workers (pytest-xdist) each get their own test database from
# pytest-django; they get their own Redis database here (the URL's index plus
# the worker's number), so one worker's cache.clear() never empties another's.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw") and os.environ.get("REDIS_URL"):
    _url = re.match(r"^(redis://[^/]+)(?:/(\d+))?$", os.environ["REDIS_URL"])
    if _url:
        _index = int(_url.group(2) or 0) + int(_worker[2:])
        os.environ["REDIS_URL"] = f"{_url.group(1)}/{_index % 16}"

# A key of the test run's own, never the installation's (var/secret_key) nor
# a published one; test subprocesses inherit it through the environment.
os.environ.setdefault("DJANGO_SECRET_KEY", "test-" + secrets.token_urlsafe(48))

from .base import *  # noqa: E402
from .base import REDIS_URL  # noqa: E402

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
if not REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
CELERY_TASK_ALWAYS_EAGER = False
# Static files are served by the test server from the app finders.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Parallel workers on the embedded default each need a database file of their
# own; without a test name pytest-django makes one by prefixing "test_" to the
# database's absolute path, a folder "test_/…" in the working directory. Each
# worker's file goes to the system's temporary folder instead (pytest-django
# adds the worker's suffix to this name).
if _worker and DATABASES["default"]["ENGINE"] == "core.sqlite":
    import tempfile

    DATABASES["default"].setdefault("TEST", {})["NAME"] = os.path.join(
        tempfile.gettempdir(), f"dmpartners-test-{os.getpid()}.sqlite3"
    )
