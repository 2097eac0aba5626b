"""Fixtures of the security tests: a fresh cache, so rate-limit counters never leak."""

from __future__ import annotations

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()
