"""The judging version of a tournament: bumped when something a judge acts on changes.

Judges' polls (dashboard, calls, the table's judge box) are answered from a
copy shared by every web process (``judging.selectors_polling``) whose cache
key contains this version, so one bump retires every shared copy of the event
at once: an alert raised or acknowledged, a judge call opened, taken or
closed, a clock started, paused, resumed, extended, stopped or out of time, a
ruling. It is the data version ``scope("judging", tournament_id)`` of
``core.cache`` (lost versions, cache outages and the bump after the commit
are handled there).
"""

from __future__ import annotations

from typing import Any

from core.cache import bump_on_commit, data_version, data_version_and, scope
from core.live_copy import hall_changed_on_commit
from core.push.broker import publish_on_commit


def judging_scope(tournament_id: int) -> str:
    """The data version of what a tournament's judges see."""
    return scope("judging", tournament_id)


def judging_version(*, tournament_id: int) -> int:
    """The current version (starting one if there is none). Raises if the cache is down."""
    return data_version(judging_scope(tournament_id))


def judging_version_and(*, tournament_id: int, key: str) -> tuple[int, Any]:
    """The current version and the cached value under ``key``, in one round trip."""
    return data_version_and(judging_scope(tournament_id), key)


def judging_changed(*, tournament_id: int) -> None:
    """Retire the tournament's shared poll answers once the current transaction commits.

    Open judge dashboards are told, and so are hall screens (they show the open calls).
    """
    bump_on_commit(judging_scope(tournament_id))
    hall_changed_on_commit(tournament_id=tournament_id)  # before the push: a told hall finds it
    publish_on_commit((f"judging:{tournament_id}", "judging"), (f"event:{tournament_id}", "tables"))
