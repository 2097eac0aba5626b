"""A transactional test leaves every table empty for the next one.

pytest-django empties the tables after each ``transactional_db`` (and
``live_server``) test; on PostgreSQL the test settings do it with DELETE
(tests/conftest.py, ``_flush_by_delete_on_postgres``). The first test here
commits rows into most of the product's tables; the second, run after it,
finds each table as a new database has it (run alone, it checks that too).
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection

from tests.security.world import build_world

# Filled again by Django after every flush (post_migrate).
REFILLED = {"contenttypes.ContentType", "auth.Permission"}


def _rows() -> dict[str, int]:
    return {
        model._meta.label: model._base_manager.count()
        for model in apps.get_models(include_auto_created=True)
        if model._meta.label not in REFILLED
    }


@pytest.mark.django_db(transaction=True)
def test_a_transactional_test_commits_rows(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    build_world(tmp_path)  # two events, every role, a logged entry, a ruling, a season, …
    assert connection.vendor in ("postgresql", "sqlite")
    assert sum(_rows().values()) > 50
    assert get_user_model().objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_next_one_finds_every_table_empty():
    left = {label: count for label, count in _rows().items() if count}
    assert not left, f"rows left by an earlier test: {left}"
