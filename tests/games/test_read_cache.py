"""games.selectors.cache: the caches the games selectors fill, on their own."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.core.cache import cache

from games.selectors.cache import LogCache, LogKey, hall_cached


@dataclass
class _View:
    game_id: int
    head: str

    @property
    def key(self) -> LogKey:
        return (self.game_id, "dm2023-Y", 1, self.head)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def _cache(size: int = 4) -> LogCache[_View, dict]:
    return LogCache(
        size=size, kind=_View, summary_kind=dict, summarise=lambda view: {"head": view.head}
    )


def test_a_shared_view_serves_another_process_and_its_summary_goes_with_it():
    here, elsewhere = _cache(), _cache()
    view = _View(7, "abc")
    here.put(view)
    found = elsewhere.get(view.key)
    assert found == view
    assert elsewhere.summaries([view.key, _View(8, "x").key]) == {view.key: {"head": "abc"}}


def test_an_unshared_view_stays_in_its_process():
    here, elsewhere = _cache(), _cache()
    view = _View(7, "abc")
    here.put(view, share=False)
    assert here.get(view.key) is view
    assert elsewhere.get(view.key) is None


def test_a_value_of_another_kind_under_a_log_key_is_not_taken_for_a_view():
    shared = _cache()
    view = _View(7, "abc")
    shared.put(view)
    cache.set("movelog:v2:7:dm2023-Y:1:abc", {"not": "a view"})
    fresh = _cache()
    assert fresh.get(view.key) is None
    fresh.warm([view.key])
    assert fresh.get(view.key) is None


def test_one_view_per_game_the_newest():
    memo = _cache()
    old, new = _View(7, "old"), _View(7, "new")
    memo.put(old, share=False)
    memo.put(new, share=False)
    assert memo.get(old.key) is None
    assert memo.get(new.key) is new


def test_a_fresh_hall_summary_is_not_built_again():
    builds = []

    def build() -> list[int]:
        builds.append(1)
        return [len(builds)]

    assert hall_cached("hall:test", build) == [1]
    assert hall_cached("hall:test", build) == [1]
    assert len(builds) == 1
