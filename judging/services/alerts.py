"""Raising and acknowledging judge alerts.

Raising is an INSERT guarded by the unique ``(game, kind)`` constraint inside
a savepoint, done while holding the clock's row lock and only if the mark is
really due by the clock in the database: a duplicate or retried task, the
sweep and a second worker all end in the same single row.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Collection

from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import NotFound
from core.users import Actor
from games.models import Game, GameClock
from games.selectors.clock import clock_elapsed_s, clock_marks_s
from games.services.clock import clock_time_up
from judging.models import Alert
from judging.services.freshness import judging_changed
from judging.services.prediction import Prediction, game_prediction
from tournament.models import Tournament
from tournament.permissions import require_judge

logger = logging.getLogger(__name__)

_DUE_FIELD = {Alert.Kind.ALERT_MARK: "alert_due_at", Alert.Kind.TIME_LIMIT: "limit_due_at"}


def _insert(
    clock: GameClock, kind: str, due: datetime.datetime, now: datetime.datetime
) -> Alert | None:
    game = clock.game
    alert_s, limit_s = clock_marks_s(clock)
    elapsed = clock_elapsed_s(clock, now)
    prediction: Prediction = {}
    if kind == Alert.Kind.ALERT_MARK:
        if Alert.objects.filter(game_id=game.pk, kind=kind).exists():
            return None
        prediction = game_prediction(game=game, elapsed_s=elapsed, limit_s=limit_s)
    try:
        with transaction.atomic():
            return Alert.objects.create(
                tournament_id=game.round.tournament_id,
                game=game,
                kind=kind,
                due_at=due,
                raised_at=timezone.now(),
                mark_minute=round((alert_s if kind == Alert.Kind.ALERT_MARK else limit_s) / 60),
                prediction=prediction,
            )
    except IntegrityError:
        return None


def _commit_without_waiting_for_disk() -> None:
    """Let this transaction's commit return before its WAL reaches the disk (PostgreSQL).

    Every table of a round reaches 50 and 60 minutes within the same second,
    and a hundred commits each waiting for its own disk flush stalled the
    tables' submissions behind them (``bench/round_load.py``: requests slower
    than 250 ms at the alert waves went from about a hundred to none). An
    alert is safe to commit so: if the database server crashes within the
    next few hundred milliseconds and the row is lost, the mark is still due
    and has no alert, so the sweep raises it again. Move entries never
    commit this way.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def alert_raise_if_due(
    *, game_id: int, kind: str, now: datetime.datetime | None = None
) -> Alert | None:
    """Raise ``kind`` for the game if its mark is due and not yet raised.

    Returns the new alert, or None when there was nothing to do (not due,
    paused, finished, already raised). The limit also raises a missed alert
    mark first and puts the game to time up.
    """
    now = now or timezone.now()
    with transaction.atomic():
        _commit_without_waiting_for_disk()
        clock = (
            GameClock.objects.select_for_update(of=("self",))
            .select_related("game__round")
            .filter(game_id=game_id)
            .first()
        )
        if clock is None or clock.game.status != Game.Status.IN_PROGRESS:
            return None
        due = getattr(clock, _DUE_FIELD[Alert.Kind(kind)])
        if due is None or due > now:
            return None
        changed = False
        if kind == Alert.Kind.TIME_LIMIT and clock.alert_due_at and clock.alert_due_at <= now:
            changed = _insert(clock, Alert.Kind.ALERT_MARK, clock.alert_due_at, now) is not None
        alert = _insert(clock, kind, due, now)
        if kind == Alert.Kind.TIME_LIMIT:
            changed = clock_time_up(game_id=game_id) or changed
        if alert is not None or changed:
            judging_changed(tournament_id=clock.game.round.tournament_id)
    if alert is not None:
        logger.info(
            "alert %s raised for game %s (%.3f s after due)",
            kind,
            game_id,
            (alert.raised_at - due).total_seconds(),
        )
    return alert


def alerts_raise_due(*, now: datetime.datetime | None = None) -> int:
    """The sweep: raise every due mark that has no alert row. Returns how many."""
    now = now or timezone.now()
    raised = 0
    for kind, field in _DUE_FIELD.items():
        game_ids = (
            GameClock.objects.filter(**{f"{field}__lte": now}, game__status=Game.Status.IN_PROGRESS)
            .filter(~Exists(Alert.objects.filter(game_id=OuterRef("game_id"), kind=kind)))
            .values_list("game_id", flat=True)
        )
        for game_id in list(game_ids):
            if alert_raise_if_due(game_id=game_id, kind=kind) is not None:
                raised += 1
    return raised


def alert_acknowledge(*, alert_id: int, actor: Actor) -> Alert:
    """A judge is on the way. The first acknowledgement wins; repeats change nothing."""
    alert = Alert.objects.select_related("tournament").filter(pk=alert_id).first()
    if alert is None:
        raise NotFound("alert_not_found", _("No such alert."))
    require_judge(actor, alert.tournament)
    if Alert.objects.filter(pk=alert.pk, acknowledged_at__isnull=True).update(
        acknowledged_at=timezone.now(), acknowledged_by=actor
    ):
        judging_changed(tournament_id=alert.tournament_id)
    alert.refresh_from_db()
    return alert


def alerts_acknowledge(*, tournament: Tournament, alert_ids: Collection[int], actor: Actor) -> int:
    """A judge is on the way to several tables at once ("acknowledge all" of a group).

    The judge names the alerts seen, so an alert raised in the meantime is not
    acknowledged unseen; alerts of another event and those already acknowledged
    are left alone (the first acknowledgement wins). Returns how many changed.
    """
    require_judge(actor, tournament)
    changed = Alert.objects.filter(
        tournament=tournament, pk__in=sorted(alert_ids), acknowledged_at__isnull=True
    ).update(acknowledged_at=timezone.now(), acknowledged_by=actor)
    if changed:
        judging_changed(tournament_id=tournament.pk)
    return changed
