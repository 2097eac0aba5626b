"""Shared fixtures. Database tests use pytest-django's ``db`` fixture."""

from __future__ import annotations

import contextlib
import copy
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import override_settings


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


# --- Data built once per module -------------------------------------------
#
# ``module_transaction`` holds one transaction open around a module's tests:
# data a module-scoped fixture builds inside it is there for each test, each
# test's own writes are rolled back to it (pytest-django's ``db`` runs a test
# in a savepoint when a transaction is open, as Django's setUpTestData does),
# and everything is rolled back after the module's last test. Only for tests
# that use ``db``: a ``transactional_db`` or ``live_server`` test commits and
# flushes, so it must not run inside it (``_no_commits_inside_a_module_transaction``).

_module_transactions: list[object] = []


@pytest.fixture(scope="module")
def module_transaction(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        # As Django's TestCase marks its own: a durable block may open inside.
        outer._from_testcase = True  # type: ignore[attr-defined]
        outer.__enter__()
    _module_transactions.append(outer)
    try:
        yield
    finally:
        _module_transactions.remove(outer)
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


_COMMITTING = {"transactional_db", "live_server", "django_db_reset_sequences"}


@pytest.fixture(autouse=True)
def _no_commits_inside_a_module_transaction(request: pytest.FixtureRequest) -> None:
    marker = request.node.get_closest_marker("django_db")
    committing = bool(_COMMITTING & set(request.fixturenames)) or bool(
        marker and (marker.kwargs.get("transaction") or (marker.args[:1] == (True,)))
    )
    if _module_transactions and committing:
        pytest.fail("a transactional test cannot share its module with module_transaction")


@pytest.fixture(scope="module")
def _security_world_built(
    module_transaction: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Any, Path]:
    from tests.security.world import build_world

    media = tmp_path_factory.mktemp("world-media")
    with django_db_blocker.unblock(), override_settings(MEDIA_ROOT=media):
        _forget_process_memos()
        return build_world(media), media


@pytest.fixture
def security_world(
    _security_world_built: tuple[Any, Path], db: None, settings: Any, tmp_path: Path
) -> Any:
    """The permission matrix's world (tests/security/world.py), built once per module.

    Each test gets it as if just built: the database as the world left it
    (``module_transaction``), its own copy of the world's objects (a test may
    change them), its own copy of the media files (a test may delete the
    print job's PDF), and no memo of another test's requests in this process
    (the table-token lookups, the tournament stamps and pages, the replays).
    """
    world, media = _security_world_built
    shutil.copytree(media, tmp_path, dirs_exist_ok=True)
    settings.MEDIA_ROOT = tmp_path
    _forget_process_memos()
    memo: dict[int, Any] = {}  # one memo: a user in ``objects`` stays the one in ``users``
    return type(world)(
        objects=copy.deepcopy(world.objects, memo),
        users=copy.deepcopy(world.users, memo),
        tokens=copy.deepcopy(world.tokens, memo),
    )


def _forget_process_memos() -> None:
    from games.selectors import log_cache
    from games.services import tokens
    from tournament.page_version import forget_stamps

    with contextlib.suppress(Exception):
        cache.clear()
    log_cache.clear()
    tokens._read_memo.clear()
    forget_stamps()


@pytest.fixture(autouse=True, scope="session")
def _flush_by_delete_on_postgres() -> Iterator[None]:
    """Empty the tables after a transactional test with DELETE, not TRUNCATE, on PostgreSQL.

    pytest-django empties every table after each ``transactional_db`` and
    ``live_server`` test (Django's ``flush``). PostgreSQL's TRUNCATE gives each
    table new files, written out at commit: measured side by side on the test
    database, 10 to 20 times as long as DELETE FROM the same tables, which
    hold a test's few rows. The tables end as empty either way; the foreign
    keys Django makes are checked at commit, when all are empty. Sequences
    are reset, or a CASCADE asked for, by TRUNCATE as before.
    """
    try:
        from django.db.backends.postgresql.operations import DatabaseOperations
    except ImportError:  # no PostgreSQL driver: the embedded default only
        yield
        return

    original = DatabaseOperations.sql_flush

    def sql_flush(
        self: DatabaseOperations,
        style: Any,
        tables: Any,
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or allow_cascade or not tables:
            return original(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        delete = f"{style.SQL_KEYWORD('DELETE')} {style.SQL_KEYWORD('FROM')}"
        return [f"{delete} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign,assignment]
    yield
    DatabaseOperations.sql_flush = original  # type: ignore[method-assign]
