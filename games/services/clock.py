"""The game clock: start, pause, resume, extend, stop, time up.

All state is in the database (``GameClock`` + ``ClockEvent``); displays get
the remaining time from ``games.selectors.clock.clock_state``, computed from
server time, so every device shows the same clock. Marks are kept as real
instants (``alert_due_at`` / ``limit_due_at``) and rescheduled whenever they
move: a per-game Celery task with an ETA fires at each mark and a beat sweep
every second catches anything a lost task missed (judging.services.alerts).
A judge's writes (pause, resume, extend) take a ``JudgeAtGame``: who acts was
checked once, where the request entered.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import Conflict
from core.live_copy import changed_on_commit, table_scope
from core.users import Actor, signed_in
from games.models import ClockEvent, Game, GameClock
from games.push import game_changed
from games.selectors.clock import clock_marks_s
from games.services.judges import JudgeAtGame
from games.signals import clock_changed
from tournament.models import Round

logger = logging.getLogger(__name__)

MAX_EXTENSION_MINUTES = 60
MAX_REASON_LENGTH = 300
ALERT_KINDS = ("alert", "limit")
# --- writing -----------------------------------------------------------------


def _recompute_due(clock: GameClock) -> None:
    """Set the real instants of both marks; none while not running."""
    if clock.started_at is None or clock.paused_at is not None or clock.stopped_at is not None:
        clock.alert_due_at = clock.limit_due_at = None
        return
    alert_s, limit_s = clock_marks_s(clock)
    base = clock.started_at + datetime.timedelta(seconds=clock.paused_real_s)
    clock.alert_due_at = base + datetime.timedelta(seconds=alert_s / clock.speed)
    clock.limit_due_at = base + datetime.timedelta(seconds=limit_s / clock.speed)


def _schedule_marks(clocks: Iterable[GameClock]) -> None:
    """After commit, queue one ETA task per future mark (best effort).

    A broker that is down must not break starting or pausing a clock: the
    beat sweep raises every mark from the database anyway.
    """
    plan = [
        (c.game_id, kind, due)
        for c in clocks
        for kind, due in (("alert", c.alert_due_at), ("limit", c.limit_due_at))
        if due is not None
    ]
    if not plan:
        return

    def publish() -> None:
        from games.tasks import clock_mark_due

        for game_id, kind, due in plan:
            try:
                clock_mark_due.apply_async(
                    args=[game_id, kind],
                    eta=due,
                    retry=True,
                    retry_policy={"max_retries": 1, "interval_start": 0, "interval_step": 0.2},
                )
            except Exception:  # the sweep is the safety net
                logger.warning("could not queue clock mark %s for game %s", kind, game_id)
                return

    transaction.on_commit(publish)


def _judging_changed(game: Game) -> None:
    # Judges' shared dashboard answers are renewed on commit (judging listens: games.signals).
    clock_changed.send(sender=Game, tournament_id=game.round.tournament_id)
    game_changed(game=game, kind="clock")


def _locked_clock(game: Game) -> GameClock:
    clock = (
        GameClock.objects.select_for_update(of=("self",))
        .select_related("game")
        .filter(game_id=game.pk)
        .first()
    )
    if clock is None or clock.started_at is None:
        raise Conflict(
            "clock_not_started",
            _("The clock of this table has not started."),
        )
    return clock


def _require_running(clock: GameClock) -> None:
    if clock.stopped_at is not None or clock.game.status == Game.Status.FINISHED:
        raise Conflict(
            "clock_stopped",
            _("This game is over; its clock is stopped."),
        )
    if clock.game.status == Game.Status.TIME_UP:
        raise Conflict(
            "clock_time_up",
            _("Time is up at this table; it awaits adjudication."),
        )


def _clock_defaults(game: Game) -> dict[str, Any]:
    tournament = game.round.tournament
    return {
        "speed": tournament.clock_speed if tournament.clock_speed > 0 else 1.0,
        "limit_minutes": tournament.time_limit_minutes,
        "alert_minutes": tournament.alert_minutes,
    }


def _start_locked(game: Game, at: datetime.datetime) -> GameClock | None:
    """Start ``game``'s clock at ``at`` (the game row is locked); None if already running."""
    if game.status == Game.Status.FINISHED:
        raise Conflict("clock_game_finished", _("This game is already finished."))
    clock, _created = GameClock.objects.get_or_create(game=game, defaults=_clock_defaults(game))
    if clock.started_at is not None:
        return None
    for field, value in _clock_defaults(game).items():
        setattr(clock, field, value)
    clock.started_at = at
    _recompute_due(clock)
    clock.save()
    ClockEvent.objects.create(clock=clock, kind=ClockEvent.Kind.START, at=at)
    _judging_changed(game)
    if game.status == Game.Status.SCHEDULED or game.started_at is None:
        game.status = Game.Status.IN_PROGRESS
        game.started_at = game.started_at or at
        game.save(update_fields=["status", "started_at"])
    return clock


def clock_start(*, game: Game, at: datetime.datetime | None = None) -> GameClock:
    """Start one table's clock (idempotent: a started clock is left alone)."""
    at = at or timezone.now()
    with transaction.atomic():
        locked = (
            Game.objects.select_for_update(of=("self",))
            .select_related("round__tournament")
            .get(pk=game.pk)
        )
        clock = _start_locked(locked, at)
        if clock is not None:
            _schedule_marks([clock])
    game.refresh_from_db(fields=["status", "started_at"])
    return GameClock.objects.get(game_id=game.pk)


def clock_started(*, games: Iterable[Game]) -> list[GameClock]:
    """Start the clocks of games a round start has just begun.

    Called by ``competition.services.pairing.round_start`` after it sets
    ``Game.started_at``; each clock starts at its game's ``started_at``.
    Idempotent per game.
    """
    started: list[GameClock] = []
    with transaction.atomic():
        ids = [g.pk for g in games]
        locked = (
            Game.objects.select_for_update(of=("self",))
            .select_related("round__tournament")
            .filter(pk__in=ids)
            .order_by("pk")
        )
        now = timezone.now()
        for game in locked:
            clock = _start_locked(game, game.started_at or now)
            if clock is not None:
                started.append(clock)
        _schedule_marks(started)
    return started


def clock_start_round(*, round: Round, at: datetime.datetime | None = None) -> list[GameClock]:
    """Start every unstarted table of ``round`` at the same instant."""
    at = at or timezone.now()
    with transaction.atomic():
        games = list(round.games.filter(status=Game.Status.SCHEDULED))
        Game.objects.filter(pk__in=[g.pk for g in games], started_at__isnull=True).update(
            started_at=at
        )
        if round.started_at is None:
            Round.objects.filter(pk=round.pk).update(started_at=at, status=Round.Status.IN_PROGRESS)
        return clock_started(games=games)


def clock_pause(*, judge: JudgeAtGame, reason: str = "") -> GameClock:
    """A judge stops the clock; ``reason`` comes checked (``games.serializers_clock``)."""
    return _pause(judge.game, judge.actor, reason)


def clock_pause_for_call(*, game: Game, reason: str = "") -> GameClock:
    """Pause while a table's judge call is open (``Tournament.pause_clock_on_call``).

    Not a judge's act: judging.services.calls has checked the table token,
    and the pause event has no actor. A judge resumes when closing the call.
    """
    return _pause(game, None, reason.strip()[:MAX_REASON_LENGTH])


def _pause(game: Game, actor: Actor | None, reason: str) -> GameClock:
    now = timezone.now()
    with transaction.atomic():
        clock = _locked_clock(game)
        _require_running(clock)
        if clock.paused_at is not None:
            raise Conflict(
                "clock_already_paused",
                _("The clock is already paused."),
            )
        clock.paused_at = now
        _recompute_due(clock)
        clock.save()
        ClockEvent.objects.create(
            clock=clock, kind=ClockEvent.Kind.PAUSE, at=now, actor=signed_in(actor), reason=reason
        )
        _judging_changed(game)
    return clock


def clock_resume(*, judge: JudgeAtGame) -> GameClock:
    """A judge starts the paused clock again (or closes the call that paused it)."""
    game, actor = judge.game, judge.actor
    now = timezone.now()
    with transaction.atomic():
        clock = _locked_clock(game)
        _require_running(clock)
        if clock.paused_at is None:
            raise Conflict("clock_not_paused", _("The clock is not paused."))
        clock.paused_real_s += max(0.0, (now - clock.paused_at).total_seconds())
        clock.paused_at = None
        _recompute_due(clock)
        clock.save()
        ClockEvent.objects.create(
            clock=clock, kind=ClockEvent.Kind.RESUME, at=now, actor=signed_in(actor)
        )
        _judging_changed(game)
        _schedule_marks([clock])
    return clock


def clock_extend(*, judge: JudgeAtGame, minutes: int, reason: str) -> GameClock:
    """Give a table extra minutes; both marks move by as much.

    ``minutes`` (1 to ``MAX_EXTENSION_MINUTES``) and ``reason`` (stripped,
    not empty) come checked (``games.serializers_clock``).
    """
    game, actor = judge.game, judge.actor
    now = timezone.now()
    with transaction.atomic():
        clock = _locked_clock(game)
        _require_running(clock)
        clock.extension_minutes += minutes
        _recompute_due(clock)
        clock.save()
        ClockEvent.objects.create(
            clock=clock,
            kind=ClockEvent.Kind.EXTEND,
            at=now,
            actor=signed_in(actor),
            minutes=minutes,
            reason=reason,
        )
        _judging_changed(game)
        _schedule_marks([clock])
    return clock


def clock_stop(*, game: Game, at: datetime.datetime | None = None) -> GameClock | None:
    """Stop the clock when the game ends (idempotent; no clock, nothing to do)."""
    at = at or timezone.now()
    with transaction.atomic():
        clock = GameClock.objects.select_for_update(of=("self",)).filter(game_id=game.pk).first()
        if clock is None or clock.started_at is None or clock.stopped_at is not None:
            return clock
        clock.stopped_at = at
        _recompute_due(clock)
        clock.save()
        ClockEvent.objects.create(clock=clock, kind=ClockEvent.Kind.STOP, at=at)
        _judging_changed(game)
    return clock


def clock_time_up(*, game_id: int) -> bool:
    """The limit is reached: the game awaits adjudication (RULES W2/W3).

    A conditional update, so a finished game is never put back to time up.
    Clears both marks. Returns whether the game changed. The caller (the
    limit alert) renews the judges' shared answers.
    """
    changed = Game.objects.filter(pk=game_id, status=Game.Status.IN_PROGRESS).update(
        status=Game.Status.TIME_UP
    )
    GameClock.objects.filter(game_id=game_id).update(alert_due_at=None, limit_due_at=None)
    if changed:  # the state shows the status: its polled copy is retired (the hall's by the caller)
        changed_on_commit(table_scope(game_id))
    return bool(changed)
