"""Shared fixtures. Database tests use pytest-django's ``db`` fixture."""

from __future__ import annotations

import os

import pytest
from django.db import connection


@pytest.fixture
def on_postgres(db: None) -> bool:
    return connection.vendor == "postgresql"


@pytest.fixture
def require_postgres(db: None) -> None:
    if connection.vendor != "postgresql":
        if os.environ.get("CI_REQUIRE_POSTGRES"):
            pytest.fail("this test must run on PostgreSQL in CI (DATABASE_URL)")
        pytest.skip("needs PostgreSQL (set DATABASE_URL)")
