"""core.freshness: versioned counters in the shared cache."""

from __future__ import annotations

import logging

import pytest
from django.core.cache import cache

from core.freshness import VersionCounter


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def test_each_name_and_scope_counts_on_its_own():
    judging, other = VersionCounter("judging"), VersionCounter("other")
    assert judging.key(7) == "judging:version:7"
    first = judging.current(7)
    judging.bump(7)
    assert judging.current(7) == first + 1
    assert other.key(7) == "other:version:7"
    before = judging.current(8)
    other.bump(8)
    assert judging.current(8) == before


def test_the_value_comes_with_the_version_in_one_read():
    counter = VersionCounter("judging")
    cache.set("answer", {"tables": 3})
    version, found = counter.current_and(1, "answer")
    assert version == counter.current(1)
    assert found == {"tables": 3}
    assert counter.current_and(1, "missing")[1] is None


@pytest.mark.django_db
def test_a_bump_waits_for_the_commit(django_capture_on_commit_callbacks):
    counter = VersionCounter("judging")
    first = counter.current(1)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        counter.bump_on_commit(1)
    assert counter.current(1) == first
    callbacks[0]()
    assert counter.current(1) == first + 1


def test_a_lost_counter_never_comes_back_to_an_old_version():
    counter = VersionCounter("judging")
    first = counter.current(1)
    counter.bump(1)
    bumped = counter.current(1)
    cache.clear()  # Redis restarted without persistence
    assert counter.current(1) not in (first, bumped)
    cache.clear()
    counter.bump(1)  # a bump of a lost counter starts a fresh one
    assert counter.current(1) not in (first, bumped)


def test_a_cache_outage_skips_the_bump_with_a_warning(monkeypatch, caplog):
    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    for method in ("get", "add", "incr"):
        monkeypatch.setattr(cache, method, down)
    counter = VersionCounter("judging")
    with caplog.at_level(logging.WARNING, logger="core.freshness"):
        counter.bump(5)
    assert "judging version of 5 not bumped" in caplog.text
    with pytest.raises(ConnectionError):
        counter.current(5)
