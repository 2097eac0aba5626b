"""The caches the games app's reads fill: replayed move logs, hall summaries and
finished games' replays.

Part of the read side: filling a cache changes no game. Every write to a
per-process memo or to the shared cache (Redis in production) happens here. A read asks
a cache and, on a miss, computes the value and hands it back through one
call (``LogCache.put``, ``hall_cached``, ``replay_frames_cached``).

They hold values that are never stale in what they claim: a replay
is keyed by its log's chain head, a hall summary carries the time it was
made and is renewed after ``HALL_CACHE_SECONDS``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from cachetools import LRUCache

from core.cache import (
    cache_key,
    shared_add,
    shared_get,
    shared_get_many,
    shared_set,
    shared_set_many,
)

LogKey = tuple[int, str, int, str]
"""(game id, ruleset and first dealer, seq, last hash): names exactly one replay."""

# A replay made by one web process serves the others for this long.
SHARED_LOG_SECONDS = 6 * 60 * 60

# Hall screens and many phones poll the same summary; a game's log changes at
# most every few seconds, so one shared copy per round for a moment spares
# every poll from touching each table's log.
HALL_CACHE_SECONDS = 2
# An older summary is served while one process renews it, never older than this.
HALL_STALE_SECONDS = 30


class CachedLog(Protocol):
    """What the log cache needs of a replayed log (``games.selectors.LogView``)."""

    game_id: int

    @property
    def key(self) -> LogKey: ...


View = TypeVar("View", bound=CachedLog)
Summary = TypeVar("Summary")


def _shared_key(key: LogKey) -> str:
    # v2: the entries kept as plain rows (v1 held a tuple of dicts under "entries").
    return cache_key("movelog", "v2", *key)


def _summary_key(key: LogKey) -> str:
    # v3: a LogSummary (v2 was a dict; v1 had no "moves").
    return cache_key("movelog", "summary", "v3", *key)


class LogCache(Generic[View, Summary]):
    """The newest replayed view of each game, for ``size`` games, backed by the shared cache.

    One view per game, not one per head: a view holds a few hundred objects
    per entry (the entries, the replay's events), and a process keeping every
    head of a busy round held a million of them, which the garbage collector
    walked in pauses of 100-350 ms. An older head (a take-back, a read racing
    a submission) comes from the shared cache instead.

    The shared cache lets every web process reuse a replay made by another;
    it is keyed by the chain head, so never stale. Each view goes there with
    its ``summarise``d summary (what the hall screen shows) in one round trip.
    A value read back that is not of the ``kind`` or ``summary_kind`` expected
    (a process of an older release wrote it) counts as missing.
    """

    def __init__(
        self,
        *,
        size: int,
        kind: type[View],
        summary_kind: type[Summary],
        summarise: Callable[[View], Summary],
    ) -> None:
        self._data: LRUCache[int, View] = LRUCache(maxsize=size)
        self._lock = threading.Lock()  # cachetools' caches are not thread-safe
        self._kind = kind
        self._summary_kind = summary_kind
        self._summarise = summarise

    def _local(self, key: LogKey) -> View | None:
        # Under self._lock: this process's view of the game, if it is at ``key``.
        view = self._data.get(key[0])
        return view if view is not None and view.key == key else None

    def get(self, key: LogKey) -> View | None:
        """The view at ``key`` from this process, else from the shared cache (kept here then)."""
        with self._lock:
            view = self._local(key)
        if view is not None:
            return view
        shared = shared_get(_shared_key(key))
        if isinstance(shared, self._kind):
            self.put(shared, share=False)
            return shared
        return None

    def put(self, view: View, *, share: bool = True) -> None:
        """Keep ``view`` as its game's newest here, and (``share``) in the shared cache."""
        with self._lock:
            self._data[view.game_id] = view
        if share:
            self.share(view)

    def share(self, view: View) -> None:
        """Hand ``view`` and its summary to the other processes (one round trip)."""
        shared_set_many(
            {_shared_key(view.key): view, _summary_key(view.key): self._summarise(view)},
            SHARED_LOG_SECONDS,
        )

    def summaries(self, keys: list[LogKey]) -> dict[LogKey, Summary]:
        """The summaries of ``keys`` the shared cache has, in one round trip."""
        names = {_summary_key(key): key for key in keys}
        return {
            names[name]: summary
            for name, summary in shared_get_many(list(names)).items()
            if isinstance(summary, self._summary_kind)
        }

    def warm(self, keys: list[LogKey]) -> None:
        """Fetch the views of ``keys`` this process lacks from the shared cache in
        one round trip (the hall summary needs every table's, most made elsewhere)."""
        with self._lock:
            missing = [key for key in keys if self._local(key) is None]
        for view in shared_get_many([_shared_key(key) for key in missing]).values():
            if isinstance(view, self._kind):
                self.put(view, share=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


Tables = TypeVar("Tables")


def hall_cached(key: str, build: Callable[[], Tables]) -> Tables:
    """The hall summary kept under ``key``, built by ``build`` when missing or older
    than ``HALL_CACHE_SECONDS``.

    One process renews an old summary; the others serve the old one meanwhile
    (up to ``HALL_STALE_SECONDS``), so a hundred polls arriving as it ages do
    not all rebuild it at once.
    """
    kept: tuple[float, Tables] | None = shared_get(key)
    now = time.time()
    fresh = kept is not None and now - kept[0] < HALL_CACHE_SECONDS
    if not fresh and (kept is None or shared_add(cache_key(key, "renewing"), HALL_CACHE_SECONDS)):
        kept = (now, build())
        shared_set(key, kept, HALL_STALE_SECONDS)
    assert kept is not None
    return kept[1]


# A finished game's replay never changes while its chain head stays: a day is
# only there so that a game nobody opens again leaves the cache.
REPLAY_CACHE_SECONDS = 24 * 60 * 60


Replay = TypeVar("Replay")


def _replay_key(key: LogKey) -> str:
    # v2: a GameReplay of typed frames (v1 held a dict of dicts).
    return cache_key("replay", "v2", *key)


def replay_frames_cached(key: LogKey, kind: type[Replay], compute: Callable[[], Replay]) -> Replay:
    """A game's replay keyed by its chain head, shared by every process. A value read
    back that is not a ``kind`` (a process of an older release wrote it) counts as missing."""
    shared_key = _replay_key(key)
    replay = shared_get(shared_key)
    if not isinstance(replay, kind):
        replay = compute()
        shared_set(shared_key, replay, REPLAY_CACHE_SECONDS)
    return replay
