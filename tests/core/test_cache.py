"""core.cache: namespaced keys and data versions over Django's cache."""

from __future__ import annotations

import logging

import pytest
from django.core.cache import cache

from core.cache import (
    bump,
    bump_on_commit,
    cache_key,
    data_version,
    data_version_and,
    scope,
    shared_add,
    shared_get,
    shared_set,
)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def test_keys_are_namespaced():
    assert cache_key("judging", "dashboard", 7, "da") == "judging:dashboard:7:da"
    assert scope("judging", 7) != scope("people")


def test_each_scope_counts_on_its_own():
    judging, other = scope("judging", 7), scope("other", 7)
    first = data_version(judging)
    bump(judging)
    assert data_version(judging) == first + 1
    before = data_version(scope("judging", 8))
    bump(other)
    bump(scope("judging", 9))
    assert data_version(scope("judging", 8)) == before


def test_the_value_comes_with_the_version_in_one_read():
    cache.set("answer", {"tables": 3})
    version, found = data_version_and(scope("judging", 1), "answer")
    assert version == data_version(scope("judging", 1))
    assert found == {"tables": 3}
    assert data_version_and(scope("judging", 1), "missing")[1] is None


@pytest.mark.django_db
def test_a_bump_waits_for_the_commit(django_capture_on_commit_callbacks):
    first = data_version(scope("judging", 1))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        bump_on_commit(scope("judging", 1))
    assert data_version(scope("judging", 1)) == first
    callbacks[0]()
    assert data_version(scope("judging", 1)) == first + 1


def test_a_lost_version_never_comes_back_to_an_old_value():
    first = data_version(scope("judging", 1))
    bump(scope("judging", 1))
    bumped = data_version(scope("judging", 1))
    cache.clear()  # Redis restarted without persistence
    assert data_version(scope("judging", 1)) > bumped
    cache.clear()
    bump(scope("judging", 1))  # a bump of a lost version starts a fresh one
    assert data_version(scope("judging", 1)) not in (first, bumped)


def test_a_cache_outage_skips_the_bump_with_a_warning(monkeypatch, caplog):
    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    for method in ("get", "get_many", "add", "incr", "set"):
        monkeypatch.setattr(cache, method, down)
    with caplog.at_level(logging.WARNING, logger="core.cache"):
        bump(scope("judging", 5))
    assert "version of judging:5 not bumped" in caplog.text
    with pytest.raises(ConnectionError):
        data_version(scope("judging", 5))
    # The shared helpers answer as if the cache were empty.
    assert shared_get("anything") is None
    assert shared_add("marker", 5) is True
    shared_set("anything", 1, 5)


# --- the scopes the site bumps ------------------------------------------------


@pytest.mark.django_db
def test_a_person_saved_or_merged_bumps_the_people_version(django_capture_on_commit_callbacks):
    from people.models import Person
    from people.page_version import PEOPLE, public_people_version
    from people.signals import people_changed
    from tests.factories import PersonFactory

    person = PersonFactory()
    before = public_people_version()
    # A bulk update sends no signal: it does not move the version (the page key's
    # counts cover consent; a name changed that way stays unseen, as documented).
    Person.objects.filter(pk=person.pk).update(name="Stille")
    assert public_people_version() == before
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        person.name = "Omdøbt"
        person.save()
    assert public_people_version() == before  # not before the commit
    for callback in callbacks:
        callback()
    renamed = public_people_version()
    assert renamed != before
    version = data_version(PEOPLE)
    with django_capture_on_commit_callbacks(execute=True):
        people_changed.send(sender=Person)
    assert data_version(PEOPLE) > version
    assert public_people_version() != renamed


@pytest.mark.django_db
def test_a_judging_change_bumps_only_its_tournaments_version(django_capture_on_commit_callbacks):
    from judging.services.freshness import judging_changed, judging_version

    first, other = judging_version(tournament_id=1), judging_version(tournament_id=2)
    with django_capture_on_commit_callbacks(execute=True):
        judging_changed(tournament_id=1)
    assert judging_version(tournament_id=1) == first + 1
    assert judging_version(tournament_id=2) == other


def test_every_namespace_in_the_tree_is_listed_in_docs_caching():
    """Every key the site keeps is named by ``cache_key(namespace, …)`` and its
    namespace is in docs/caching.md's table: a new kind of cached value is documented."""
    import ast
    import re
    from pathlib import Path

    from django.conf import settings

    root = Path(settings.BASE_DIR)
    text = (root / "docs" / "caching.md").read_text(encoding="utf-8")
    table = text.split("## Namespaces", 1)[1].split("\n## ", 1)[0]
    found: dict[str, str] = {}
    for path in root.rglob("*.py"):
        relative = path.relative_to(root)
        if relative.parts[0] in {".venv", "tests", "var", "bench"}:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {
            target.id: node.value.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "cache_key"
                and node.args
            ):
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found[first.value] = str(relative)
            elif isinstance(first, ast.Name) and first.id in constants:
                found[constants[first.id]] = str(relative)
    assert {"hall", "movelog", "replay", "ratelimit", "live:v1", "version"} <= set(found)
    missing = {
        namespace: where
        for namespace, where in found.items()
        if not re.search("`" + re.escape(namespace) + "[:`]", table)
    }
    assert not missing, f"namespaces not in docs/caching.md: {missing}"
