"""Shared fixtures. Database tests use pytest-django's ``db`` fixture."""

from __future__ import annotations

import contextlib
import os

import pytest
from django.core.cache import cache
from django.db import connection


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Each test starts with an empty cache (Redis is shared across the run in CI)."""
    # A test that stops Redis on purpose must still be able to start.
    with contextlib.suppress(Exception):
        cache.clear()


@pytest.fixture
def on_postgres(db: None) -> bool:
    return connection.vendor == "postgresql"


@pytest.fixture
def require_postgres(db: None) -> None:
    if connection.vendor != "postgresql":
        if os.environ.get("CI_REQUIRE_POSTGRES"):
            pytest.fail("this test must run on PostgreSQL in CI (DATABASE_URL)")
        pytest.skip("needs PostgreSQL (set DATABASE_URL)")


@pytest.fixture(autouse=True, scope="session")
def _static_root() -> None:
    """WhiteNoise looks for STATIC_ROOT when the first request comes (the test
    server serves from the app finders; the folder is only its anchor)."""
    from django.conf import settings

    settings.STATIC_ROOT.mkdir(parents=True, exist_ok=True)
