"""Reading the game clock: what every display shows, computed from server time.

The clock's state lives in the database (``GameClock`` + ``ClockEvent``);
its changes are ``games.services.clock``'s.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import ClockEvent, Game, GameClock

CLOCK_STATUS_LABELS = {
    "not_started": _("Not started"),
    "running": _("Running"),
    "paused": _("Paused"),
    "time_up": _("Time up — awaiting adjudication"),
    "stopped": _("Game over"),
}


@dataclass(frozen=True)
class ClockExtension:
    """Minutes a judge added to the clock, why, when and by whom (a username)."""

    minutes: int | None
    reason: str
    at: str
    by: str

    def to_json(self) -> dict[str, Any]:
        return {"minutes": self.minutes, "reason": self.reason, "at": self.at, "by": self.by}


@dataclass(frozen=True)
class ClockState:
    """The clock as every display shows it; ``to_json`` is the clock API's answer.

    Seconds are clock seconds (the event's clock speed applied); a display
    counts a running clock on from ``server_time``, when it was read.
    """

    status: str
    elapsed_s: float
    remaining_s: float
    limit_s: float
    alert_s: float
    server_time: str
    extensions: tuple[ClockExtension, ...]
    paused: bool
    paused_reason: str
    speed: float

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "elapsed_s": self.elapsed_s,
            "remaining_s": self.remaining_s,
            "limit_s": self.limit_s,
            "alert_s": self.alert_s,
            "server_time": self.server_time,
            "extensions": [extension.to_json() for extension in self.extensions],
            "paused": self.paused,
            "paused_reason": self.paused_reason,
            "speed": self.speed,
        }


def clock_of(game: Game) -> GameClock | None:
    """The game's clock, or None before it was ever started."""
    try:
        return game.clock
    except GameClock.DoesNotExist:
        return None


def clock_marks_s(clock: GameClock) -> tuple[float, float]:
    """The alert mark and the limit in clock seconds, extensions included."""
    extra = clock.extension_minutes * 60
    return clock.alert_minutes * 60 + extra, clock.limit_minutes * 60 + extra


def clock_elapsed_s(clock: GameClock, now: datetime.datetime) -> float:
    """Clock seconds played: real running time (no pauses) times the speed."""
    if clock.started_at is None:
        return 0.0
    end = clock.stopped_at or now
    if clock.paused_at is not None:
        end = min(end, clock.paused_at)
    running = (end - clock.started_at).total_seconds() - clock.paused_real_s
    return max(0.0, running) * clock.speed


def _status(game: Game, clock: GameClock | None, elapsed: float, limit_s: float) -> str:
    if clock is None or clock.started_at is None:
        return "not_started"
    if clock.stopped_at is not None or game.status == Game.Status.FINISHED:
        return "stopped"
    if game.status == Game.Status.TIME_UP or elapsed >= limit_s:
        return "time_up"
    if clock.paused_at is not None:
        return "paused"
    return "running"


def clock_state(*, game: Game, now: datetime.datetime | None = None) -> ClockState:
    """The clock as every display shows it (``to_json``: the clock API's JSON).

    Works on a game fetched with ``select_related("round__tournament",
    "clock")`` and ``prefetch_related("clock__events__actor")`` without
    further queries.
    """
    now = now or timezone.now()
    clock = clock_of(game)
    if clock is None:
        tournament = game.round.tournament
        alert_s = tournament.alert_minutes * 60.0
        limit_s = tournament.time_limit_minutes * 60.0
        elapsed = 0.0
        speed = tournament.clock_speed
        extensions: tuple[ClockExtension, ...] = ()
        paused_reason = ""
    else:
        alert_s, limit_s = clock_marks_s(clock)
        elapsed = clock_elapsed_s(clock, now)
        speed = clock.speed
        events = list(clock.events.all())
        extensions = tuple(
            ClockExtension(
                minutes=e.minutes,
                reason=e.reason,
                at=e.at.isoformat(),
                by=e.actor.get_username() if e.actor else "",
            )
            for e in events
            if e.kind == ClockEvent.Kind.EXTEND
        )
        pauses = [e for e in events if e.kind == ClockEvent.Kind.PAUSE]
        paused_reason = pauses[-1].reason if clock.paused_at and pauses else ""
    status = _status(game, clock, elapsed, limit_s)
    if status == "time_up":
        elapsed = min(elapsed, limit_s)
    return ClockState(
        status=status,
        elapsed_s=round(elapsed, 2),
        remaining_s=round(max(0.0, limit_s - elapsed), 2),
        limit_s=limit_s,
        alert_s=alert_s,
        server_time=now.isoformat(),
        extensions=extensions,
        paused=status == "paused",
        paused_reason=paused_reason,
        speed=speed,
    )
