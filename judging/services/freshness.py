"""The judging version of a tournament: a counter bumped when something a judge acts on changes.

Judges' polls (dashboard, calls, the table's judge box) are answered from a
copy shared by every web process (``judging.selectors_polling``) whose cache
key contains this version, so one bump retires every shared copy of the event
at once: an alert raised or acknowledged, a judge call opened, taken or
closed, a clock started, paused, resumed, extended, stopped or out of time, a
ruling. The counter is ``core.freshness.VersionCounter`` (lost counters,
cache outages and the bump after the commit are handled there).
"""

from __future__ import annotations

from typing import Any

from core.freshness import VersionCounter
from core.live_copy import hall_changed_on_commit
from core.push.broker import publish_on_commit

_judging = VersionCounter("judging")


def judging_version(*, tournament_id: int) -> int:
    """The current version (starting one if there is none). Raises if the cache is down."""
    return _judging.current(tournament_id)


def judging_version_and(*, tournament_id: int, key: str) -> tuple[int, Any]:
    """The current version and the cached value under ``key``, in one round trip."""
    return _judging.current_and(tournament_id, key)


def judging_changed(*, tournament_id: int) -> None:
    """Retire the tournament's shared poll answers once the current transaction commits.

    Open judge dashboards are told, and so are hall screens (they show the open calls).
    """
    _judging.bump_on_commit(tournament_id)
    hall_changed_on_commit(tournament_id=tournament_id)  # before the push: a told hall finds it
    publish_on_commit(f"judging:{tournament_id}", "judging")
    publish_on_commit(f"event:{tournament_id}", "tables")
