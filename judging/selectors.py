"""Reads of the judging app: the judge dashboard.

One query for the round's games with their pairs, players, clocks and move
counts, plus one prefetch each for clock events and alerts: no query per
table, however many tables the round has.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import Count, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import ClockEvent, Game
from games.services.clock import CLOCK_STATUS_LABELS, clock_state
from judging.models import Alert
from judging.services.prediction import urgency_key
from tournament.models import Round, Tournament

# Dashboard order: tables needing a judge first.
_BUCKET = {"time_up": 1, "running": 2, "paused": 2, "not_started": 3, "stopped": 4}


def current_round(*, tournament: Tournament) -> Round | None:
    """The round in progress, else the latest published one."""
    rounds = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number")
    return rounds.filter(status=Round.Status.IN_PROGRESS).first() or rounds.first()


def _alert_json(alert: Alert, game: Game) -> dict[str, Any]:
    raised = timezone.localtime(alert.raised_at)
    acked = timezone.localtime(alert.acknowledged_at) if alert.acknowledged_at else None
    return {
        "id": alert.pk,
        "game_id": game.pk,
        "table": game.table_number,
        "kind": alert.kind,
        "kind_label": (
            _("%(minute)s minutes — step in if needed") % {"minute": alert.mark_minute}
            if alert.kind == Alert.Kind.ALERT_MARK
            else _("%(minute)s minutes — time is up") % {"minute": alert.mark_minute}
        ),
        "mark_minute": alert.mark_minute,
        "raised_at": alert.raised_at.isoformat(),
        "raised_at_local": raised.strftime("%H:%M:%S"),
        "open": alert.is_open,
        "acknowledged_by": alert.acknowledged_by.get_username() if alert.acknowledged_by else "",
        "acknowledged_at_local": acked.strftime("%H:%M:%S") if acked else "",
        "prediction": alert.prediction,
        "rank": None,
    }


def _alert_order(alert: dict[str, Any]) -> tuple[Any, ...]:
    return (
        0 if alert["open"] else 1,
        0 if alert["kind"] == Alert.Kind.TIME_LIMIT else 1,
        urgency_key(alert["prediction"]) if alert["open"] else (0.0, 0.0),
        alert["table"],
    )


def judge_dashboard(
    *, tournament: Tournament, now: datetime.datetime | None = None
) -> dict[str, Any]:
    """Every table of the current round, most urgent first, with its alerts."""
    now = now or timezone.now()
    round_ = current_round(tournament=tournament)
    data: dict[str, Any] = {
        "tournament": tournament.slug,
        "round": round_.number if round_ else None,
        "server_time": now.isoformat(),
        "tables": [],
        "alerts": [],
    }
    if round_ is None:
        return data
    games = (
        Game.objects.filter(round=round_)
        .select_related(
            "round__tournament",
            "clock",
            "pair_yb__player_1",
            "pair_yb__player_2",
            "pair_rg__player_1",
            "pair_rg__player_2",
        )
        .prefetch_related(
            Prefetch("clock__events", queryset=ClockEvent.objects.select_related("actor")),
            Prefetch("alerts", queryset=Alert.objects.select_related("acknowledged_by")),
        )
        .annotate(moves=Count("move_entries", filter=Q(move_entries__withdrawn_at__isnull=True)))
        .order_by("table_number")
    )
    tables = []
    alerts = []
    for game in games:
        clock = clock_state(game=game, now=now)
        game_alerts = [_alert_json(a, game) for a in game.alerts.all()]
        alerts.extend(game_alerts)
        open_alerts = sorted((a for a in game_alerts if a["open"]), key=_alert_order)
        predicted = next((a["prediction"] for a in game_alerts if a["prediction"]), {})
        tables.append(
            {
                "game_id": game.pk,
                "table": game.table_number,
                "pair_yb": game.pair_yb.display_name,
                "pair_rg": game.pair_rg.display_name,
                "status": clock["status"],
                "status_label": str(CLOCK_STATUS_LABELS[clock["status"]]),
                "clock": clock,
                "moves": game.moves,
                "progress": predicted.get("progress"),
                "prediction": predicted,
                "alerts": game_alerts,
                "open_alerts": len(open_alerts),
                "_order": (
                    (0, *_alert_order(open_alerts[0])[1:3])
                    if open_alerts
                    else (_BUCKET[clock["status"]], 0, (clock["remaining_s"], 0.0)),
                    game.table_number,
                ),
            }
        )
    tables.sort(key=lambda t: t.pop("_order"))
    alerts.sort(key=_alert_order)
    rank = 0
    for alert in alerts:
        if alert["open"] and alert["kind"] == Alert.Kind.ALERT_MARK:
            rank += 1
            alert["rank"] = rank
    data["tables"] = tables
    data["alerts"] = alerts
    return data
