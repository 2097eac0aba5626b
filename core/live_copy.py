"""Shared copies of the answers spectators poll, and the marks that say when a copy is old.

The live table view and the hall screen poll the same few answers over and
over (``/api/games/<id>/state/?tail=20``, ``/api/tournaments/<slug>/hall/``);
between two moves each poll finds the same bytes. ``config.live_poll`` keeps
the answer Django gave an anonymous visitor in the shared cache (Redis in
production, the file cache of the embedded default) and answers the next
polls from it without entering Django or reading the database.

A copy is good exactly as long as the *marks* it was made under are current.
A mark is a random token in the shared cache, one per scope:

* ``table_scope(game)``: the table's log, clock and result
  (``games.push.game_changed``);
* ``tables_scope(tournament)``: any table of the event or a judge call, what
  the hall shows (``game_changed`` and the judging version);
* ``event_scope(tournament)``: the event's public data and who may see it
  (``tournament.services.audit.tournament_data_changed``: publishing the event
  or a round, a draft round paired again, a result, a pair renamed).

A change replaces its marks with new tokens once its transaction commits.
A copy is made by reading the marks *first*, then letting Django answer
(which reads the database), then storing the answer with the marks read. If
a change commits while the answer is made, the copy carries a token the
change has already replaced, so it is never served: a copy can be missed,
never stale. A missing mark is created with a new random token, never an
earlier one, so an evicted mark also retires every copy made under it.

Everything here goes through ``core.cache``: with the cache down,
nothing is copied and every poll is answered by Django as before.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from django.db import transaction

from core.cache import cache_key, shared_get_many, shared_set, shared_set_many

logger = logging.getLogger(__name__)

PREFIX = "live:v1"
COPY_SECONDS = 24 * 60 * 60
"""How long an unread copy stays in the cache (a mark ends a read one sooner)."""
MARK_SECONDS = 7 * 24 * 60 * 60
"""Longer than any copy lives: a mark that expires only retires copies sooner."""
FILL_GUARD_SECONDS = 2
"""How long the process renewing a copy holds the others off (it ends when it is done)."""
FILL_WAIT_SECONDS = 0.5
"""How long a poll waits for another process's new copy before asking Django itself."""


def table_scope(game_id: int) -> str:
    return cache_key(PREFIX, "mark", "table", game_id)


def tables_scope(tournament_id: int) -> str:
    return cache_key(PREFIX, "mark", "tables", tournament_id)


def event_scope(tournament_id: int) -> str:
    return cache_key(PREFIX, "mark", "event", tournament_id)


def copy_key(kind: str, ident: object) -> str:
    return cache_key(PREFIX, "copy", kind, ident)


def fill_guard_key(key: str) -> str:
    return cache_key(key, "filling")


def _token() -> str:
    return secrets.token_hex(8)


def renew(scopes: Iterable[str]) -> None:
    """Give ``scopes`` new marks now: every copy made under the old ones is retired."""
    shared_set_many({scope: _token() for scope in scopes}, MARK_SECONDS)


def changed_on_commit(*scopes: str) -> None:
    """Renew ``scopes`` once the current transaction commits (nothing if it rolls back)."""
    transaction.on_commit(lambda: renew(scopes))


def table_changed_on_commit(*, game_id: int, tournament_id: int) -> None:
    """A table's log, clock or result changed: its live state and its event's hall."""
    changed_on_commit(table_scope(game_id), tables_scope(tournament_id))


def hall_changed_on_commit(*, tournament_id: int) -> None:
    """Something the hall shows changed (a judge call): the event's hall only."""
    changed_on_commit(tables_scope(tournament_id))


def event_changed_on_commit(*, tournament_id: int) -> None:
    """The event's public data or who may see it changed: every copy of the event."""
    changed_on_commit(event_scope(tournament_id), tables_scope(tournament_id))


Reader = Callable[[list[str]], dict[str, Any]]
_reader: Reader | None = None
_reader_lock = threading.Lock()


def read_many(keys: list[str]) -> dict[str, Any]:
    """``cache.get_many`` for the polls' hot path; nothing found when the cache is down.

    With Redis, one client is kept for the process: Django's Redis backend
    builds a new client object on every call, which costs three times the
    round trip itself, and a poll answered from a copy is little else."""
    global _reader
    if _reader is None:
        with _reader_lock:
            _reader = _reader or _make_reader()
    return _reader(keys)


def forget_reader() -> None:
    """Drop the process's reader (tests that change the cache)."""
    global _reader
    _reader = None


def _make_reader() -> Reader:
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return shared_get_many
    # Django's own client and serializer, so keys and values are read as it wrote them.
    client = backend._cache.get_client(None, write=False)
    loads = backend._cache._serializer.loads  # type: ignore[attr-defined]

    def read(keys: list[str]) -> dict[str, Any]:
        try:
            values = client.mget([backend.make_key(key) for key in keys])
        except Exception:
            logger.warning("shared cache unavailable", exc_info=True)
            return {}
        return {
            key: loads(value) for key, value in zip(keys, values, strict=True) if value is not None
        }

    return read


def current_marks(keys: list[str]) -> dict[str, str] | None:
    """The marks under ``keys``, a missing one created anew; None when the cache is down."""
    found = shared_get_many(keys)
    missing = [key for key in keys if key not in found]
    if not missing:
        return {key: str(found[key]) for key in keys}
    try:
        for key in missing:
            cache.add(key, _token(), MARK_SECONDS)
    except Exception:  # the cache is down: no copy now
        return None
    found.update(shared_get_many(missing))
    if any(key not in found for key in keys):
        return None
    return {key: str(found[key]) for key in keys}


def mark_of(scope: str) -> str:
    """The current mark of ``scope`` (one made if missing; "" with the cache down), for a
    cache key of data behind a copy: read before that data, it changes with the scope."""
    marks = current_marks([scope])
    return marks[scope] if marks else ""


@dataclass(frozen=True)
class Copy:
    """One stored answer: the WSGI status, headers and body Django gave, and its ETag.

    ``tournament_id`` names the event whose marks it was made under; ``marks``
    maps each mark's key to the token it had; ``made_at`` is epoch seconds."""

    tournament_id: int
    marks: dict[str, str]
    status: str
    headers: list[tuple[str, str]]
    body: bytes
    etag: str
    made_at: float


def store(key: str, copy: Copy) -> None:
    shared_set(key, copy, COPY_SECONDS)


FRESH = "fresh"
"""Every mark the copy was made under is current: answer from it."""
CHANGED = "changed"
"""Only what it shows moved (its table, its hall): one process makes the new copy, the
others wait for it a moment (``FILL_WAIT_SECONDS``) rather than all asking Django."""
MISSING = "missing"
"""No copy, or who may see it may have changed (a guard mark moved or is gone): Django."""


def judge(copy: object, current: dict[str, object], *, guards: Iterable[str]) -> str:
    """Whether ``copy`` may answer, given the marks ``current`` read now.

    ``guards`` are the marks about who may see the answer (the event's): a
    copy whose guard moved is never served, nor waited for."""
    if not isinstance(copy, Copy):
        return MISSING
    moved = [key for key, token in copy.marks.items() if current.get(key) != token]
    if not moved:
        return FRESH
    if set(moved) & set(guards) or any(current.get(key) is None for key in moved):
        return MISSING
    return CHANGED
