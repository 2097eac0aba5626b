"""Answers to the polls of judges and tables: shared by every process, with an entity tag.

Five judges poll the dashboard every second and every table polls its judge
box every five seconds; the answer is the same for every judge of the event
(per language: labels are translated) and for every device of a table. So
each answer is computed once and kept in the cache (Redis in production),
stamped with the tournament's judging version (``judging.services.freshness``),
read in the same round trip: an alert, a call, a clock action or a ruling
bumps the version on commit and the next poll computes afresh (the
dashboard's stamp also holds ``Tournament.data_version``, which round changes
bump). On top of that an answer lives at most ``*_MAX_AGE_S`` seconds: for
the dashboard one second, for what changes without a bump (move counts, the
order of running clocks); for calls and the table box, whose every change
bumps, longer.

The entity tag lets a poller send ``If-None-Match`` and get 304 when nothing
changed. The dashboard's tag is weak and leaves out what only the passing of
time changes (a running clock's elapsed and remaining seconds, the server
time): the answer gives every clock at one ``server_time``, so a display
counts running clocks on from there and an older copy with the same tag is
still right. A cache outage only costs the sharing: answers are computed
per request.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils import translation

from core.cache import cache_key, shared_set
from games.models import Game
from judging.selectors import judge_dashboard
from judging.selectors_review import calls_open, table_judge_status
from judging.services.freshness import judging_version_and
from tournament.models import Tournament

logger = logging.getLogger(__name__)

DASHBOARD_MAX_AGE_S = 1.0
# Every change to a call or a ruling bumps the version: these ages are only a safety net.
CALLS_MAX_AGE_S = 5.0
TABLE_MAX_AGE_S = 30.0


@dataclass(frozen=True)
class PollAnswer:
    body: bytes  # JSON
    etag: str  # quoted: "…" or W/"…"


def _json(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def _digest(*parts: Any) -> str:
    text = json.dumps(parts, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def _shared(
    *,
    tournament_id: int,
    key: str,
    max_age_s: float,
    build: Callable[[], PollAnswer],
    extra: str = "",
) -> PollAnswer:
    """The answer kept under ``key`` if it was built at the current judging version
    (and ``extra``) less than ``max_age_s`` ago, else ``build()``, kept there.

    The version is read before anything is built, so an answer built from rows
    older than a bump is never kept under the bumped version.
    """
    try:
        version, entry = judging_version_and(tournament_id=tournament_id, key=key)
    except Exception:  # the cache is down: no sharing, never a failed poll
        logger.warning("poll cache unavailable", exc_info=True)
        return build()
    stamp = f"{version}:{extra}"
    if entry and entry["stamp"] == stamp and time.time() - entry["at"] <= max_age_s:
        return PollAnswer(body=entry["body"], etag=entry["etag"])
    answer = build()
    entry = {"stamp": stamp, "at": time.time(), "body": answer.body, "etag": answer.etag}
    # Whole seconds for Redis; the age check above is exact.
    shared_set(key, entry, int(max_age_s) + 1)
    return answer


def _clock_without_time(clock: dict[str, Any]) -> dict[str, Any]:
    # A running clock's seconds follow from server_time; any other clock's are fixed.
    moving = {"server_time"}
    if clock["status"] == "running":
        moving |= {"elapsed_s", "remaining_s"}
    return {k: v for k, v in clock.items() if k not in moving}


def dashboard_etag(data: dict[str, Any], language: str) -> str:
    """A weak tag of the dashboard: equal when only the passing of time differs."""
    timeless = {
        **data,
        "server_time": None,
        "tables": [{**t, "clock": _clock_without_time(t["clock"])} for t in data["tables"]],
    }
    return f'W/"{_digest(language, timeless)}"'


def judge_dashboard_answer(*, tournament: Tournament) -> PollAnswer:
    """The judge dashboard JSON (``judging.selectors.judge_dashboard``), shared by all judges.

    ``tournament.data_version`` is part of the stamp: starting, closing or
    publishing a round bumps it (``tournament_data_changed``), so a new
    current round shows at once too.
    """
    language = translation.get_language() or ""

    def build() -> PollAnswer:
        data = judge_dashboard(tournament=tournament)
        return PollAnswer(body=_json(data), etag=dashboard_etag(data, language))

    return _shared(
        tournament_id=tournament.pk,
        key=cache_key("judging", "dashboard", tournament.pk, language),
        max_age_s=DASHBOARD_MAX_AGE_S,
        build=build,
        extra=str(tournament.data_version),
    )


def _plain_answer(data: Any, language: str) -> PollAnswer:
    body = _json(data)
    return PollAnswer(body=body, etag=f'"{_digest(language, body.decode())}"')


def calls_open_answer(*, tournament: Tournament) -> PollAnswer:
    """``{"calls": calls_open(…)}``, shared by all judges of the event."""
    language = translation.get_language() or ""
    return _shared(
        tournament_id=tournament.pk,
        key=cache_key("judging", "calls", tournament.pk, language),
        max_age_s=CALLS_MAX_AGE_S,
        build=lambda: _plain_answer({"calls": calls_open(tournament=tournament)}, language),
    )


def table_judge_answer(*, game: Game) -> PollAnswer:
    """``table_judge_status`` of a table (its open call and rulings), shared by its devices.

    ``game`` comes with ``round__tournament`` (as from ``game_from_token``).
    """
    language = translation.get_language() or ""
    return _shared(
        tournament_id=game.round.tournament_id,
        key=cache_key("judging", "table", game.pk, language),
        max_age_s=TABLE_MAX_AGE_S,
        build=lambda: _plain_answer(table_judge_status(game=game), language),
    )
