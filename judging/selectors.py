"""Reads of the judging app: the judge dashboard.

After finding the current round, four plain-value queries (the round's games
with their pairs and clocks, the pause and extension events, the alerts, the
active entry count per game) and no model instances: building ~1,300 model
objects per call was most of the dashboard's cost. Judges' polls are
answered from a shared copy (``judging.selectors_polling``).
"""

from __future__ import annotations

import datetime
import math
from collections import defaultdict
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import ClockEvent, Game, MoveEntry
from games.selectors.clock import CLOCK_STATUS_LABELS, ClockState, clock_state
from judging.models import Alert, JudgeCall
from judging.services.prediction import urgency_key
from tournament.models import Round, Tournament

# Dashboard order: tables needing a judge first.
_BUCKET = {"time_up": 1, "running": 2, "paused": 2, "not_started": 3, "stopped": 4}
_PAIR_FIELDS = ("name", "player_1__name", "player_2__name")
_CLOCK_FIELDS = (
    "started_at",
    "paused_at",
    "paused_real_s",
    "extension_minutes",
    "stopped_at",
    "speed",
    "limit_minutes",
    "alert_minutes",
)


def current_round(*, tournament: Tournament) -> Round | None:
    """The round in progress, else the latest published one."""
    rounds = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number")
    return rounds.filter(status=Round.Status.IN_PROGRESS).first() or rounds.first()


def _pair_name(row: dict[str, Any], side: str) -> str:
    # As Pair.display_name, from the joined values.
    second = row[f"{side}__player_2__name"]  # None for a singles entrant
    first = row[f"{side}__player_1__name"]
    players = f"{first} & {second}" if second is not None else first
    name = row[f"{side}__name"]
    return f"{name} ({players})" if name else players


class _Events:
    """``clock.events.all()`` for ``clock_state``, over event rows already read."""

    def __init__(self, rows: list[Any]) -> None:
        self._rows = rows

    def all(self) -> list[Any]:
        return self._rows


class _Actor:
    def __init__(self, username: str) -> None:
        self._username = username

    def get_username(self) -> str:
        return self._username


def _clock_events(round_: Round) -> dict[int, list[Any]]:
    """Per game, the events ``clock_state`` reads (extensions, pauses), oldest first."""
    rows = (
        ClockEvent.objects.filter(
            clock__game__round=round_, kind__in=(ClockEvent.Kind.EXTEND, ClockEvent.Kind.PAUSE)
        )
        .order_by("at", "pk")
        .values("clock__game_id", "kind", "at", "minutes", "reason", "actor__username")
    )
    events: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        actor = row["actor__username"]
        events[row["clock__game_id"]].append(
            SimpleNamespace(
                kind=row["kind"],
                at=row["at"],
                minutes=row["minutes"],
                reason=row["reason"],
                actor=_Actor(actor) if actor is not None else None,
            )
        )
    return events


def _clock_of_row(
    row: dict[str, Any], events: list[Any], tournament: Tournament, now: datetime.datetime
) -> ClockState:
    """``clock_state`` of one game from its row: the clock API's rules, no model instances."""
    clock = None
    if row["clock__id"] is not None:
        clock = SimpleNamespace(
            **{field: row[f"clock__{field}"] for field in _CLOCK_FIELDS}, events=_Events(events)
        )
    game = SimpleNamespace(
        clock=clock, status=row["status"], round=SimpleNamespace(tournament=tournament)
    )
    return clock_state(game=game, now=now)  # type: ignore[arg-type]


def _alert_labels() -> dict[str, str]:
    return {
        Alert.Kind.ALERT_MARK: _("%(minute)s minutes — step in if needed"),
        Alert.Kind.TIME_LIMIT: _("%(minute)s minutes — time is up"),
    }


def prediction_words(prediction: dict[str, Any] | None) -> tuple[str, str]:
    """(short, sentence): the overrun prediction in plain words, for a tile and a table card."""
    prediction = prediction or {}
    if not prediction.get("known"):
        return (
            _("no moves logged"),
            _("The table has logged no moves, so there is no forecast: go and look."),
        )
    if prediction.get("stuck"):
        return _("stuck"), _("No progress since the start: the game is probably stuck.")
    overrun = prediction.get("overrun_s")
    if overrun is not None and overrun > 0:
        minutes = {"minutes": math.ceil(overrun / 60)}
        return (
            _("about %(minutes)s min over") % minutes,
            _("At this pace the game runs about %(minutes)s min over time.") % minutes,
        )
    return _("on time"), _("At this pace the game finishes in time.")


def _alert_json(row: Mapping[str, Any], table: int, labels: dict[str, str]) -> dict[str, Any]:
    raised = timezone.localtime(row["raised_at"])
    acked_at = row["acknowledged_at"]
    acked = timezone.localtime(acked_at) if acked_at else None
    minute = row["mark_minute"]
    return {
        "id": row["pk"],
        "game_id": row["game_id"],
        "table": table,
        "kind": row["kind"],
        "kind_label": labels[row["kind"]] % {"minute": minute},
        "mark_minute": minute,
        "raised_at": row["raised_at"].isoformat(),
        "raised_at_local": raised.strftime("%H:%M:%S"),
        "open": acked_at is None,
        "acknowledged_by": row["acknowledged_by__username"] or "",
        "acknowledged_at_local": acked.strftime("%H:%M:%S") if acked else "",
        "prediction": row["prediction"],
        "prediction_short": "",
        "rank": None,
    }


def _alert_order(alert: dict[str, Any]) -> tuple[Any, ...]:
    return (
        0 if alert["open"] else 1,
        0 if alert["kind"] == Alert.Kind.TIME_LIMIT else 1,
        urgency_key(alert["prediction"]) if alert["open"] else (0.0, 0.0),
        alert["table"],
    )


def alert_groups(alerts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The open alerts grouped by mark ("60 minutes — time is up: tables 3, 7, 12 …").

    ``alerts`` come most urgent first (``_alert_order``). A group lists its
    tables in that order, and the groups follow their most urgent table (every
    time limit before every alert mark); marks differ per table once a clock is
    extended, so a group is a kind and a minute. A table whose time limit has
    been raised is not listed again under its alert mark: that alert is
    superseded and is acknowledged with the limit (``ids``).
    """
    limit_games = {a["game_id"] for a in alerts if a["kind"] == Alert.Kind.TIME_LIMIT}
    superseded: dict[int, list[int]] = defaultdict(list)
    for alert in alerts:
        if (
            alert["open"]
            and alert["kind"] == Alert.Kind.ALERT_MARK
            and alert["game_id"] in limit_games
        ):
            superseded[alert["game_id"]].append(alert["id"])
    groups: dict[tuple[str, int], dict[str, Any]] = {}
    for alert in alerts:
        if not alert["open"] or alert["id"] in superseded.get(alert["game_id"], ()):
            continue
        key = (alert["kind"], alert["mark_minute"])
        group = groups.get(key)
        if group is None:
            group = groups[key] = {
                "key": f"{alert['kind']}-{alert['mark_minute']}",
                "kind": alert["kind"],
                "mark_minute": alert["mark_minute"],
                "label": alert["kind_label"],
                "entries": [],
            }
        group["entries"].append(
            {
                "id": alert["id"],
                "ids": [alert["id"], *superseded.get(alert["game_id"], [])],
                "table": alert["table"],
                "game_id": alert["game_id"],
                "short": alert["prediction_short"],
            }
        )
    return list(groups.values())


def judge_dashboard(
    *, tournament: Tournament, now: datetime.datetime | None = None
) -> dict[str, Any]:
    """Every table of the current round, most urgent first, with its alerts.

    Every clock is computed at the same ``now`` (``server_time``), so a
    display can count running clocks on from it.
    """
    now = now or timezone.now()
    round_ = current_round(tournament=tournament)
    data: dict[str, Any] = {
        "tournament": tournament.slug,
        "round": round_.number if round_ else None,
        "server_time": now.isoformat(),
        "tables": [],
        "alerts": [],
        "alert_groups": [],
    }
    if round_ is None:
        return data
    # The active entries of a log are numbered 1..n (only the last can be
    # taken back), so the last one's number is their count: one index probe
    # per table instead of counting every entry of the round each second.
    last_seq = (
        MoveEntry.objects.filter(game=OuterRef("pk"), withdrawn_at__isnull=True)
        .order_by("-seq")
        .values("seq")[:1]
    )
    games = (
        Game.objects.filter(round=round_)
        .annotate(moves=Coalesce(Subquery(last_seq), 0))
        .order_by("table_number")
        .values(
            "pk",
            "table_number",
            "status",
            *(f"{side}__{field}" for side in ("pair_yb", "pair_rg") for field in _PAIR_FIELDS),
            "clock__id",
            *(f"clock__{field}" for field in _CLOCK_FIELDS),
            "moves",
        )
    )
    game_alerts: dict[int, list[dict[str, Any]]] = defaultdict(list)
    labels = _alert_labels()
    for alert_row in (
        Alert.objects.filter(game__round=round_)
        .order_by("raised_at", "pk")
        .values(
            "pk",
            "game_id",
            "game__table_number",
            "kind",
            "mark_minute",
            "raised_at",
            "acknowledged_at",
            "acknowledged_by__username",
            "prediction",
        )
    ):
        game_alerts[alert_row["game_id"]].append(
            _alert_json(alert_row, alert_row["game__table_number"], labels)
        )
    events = _clock_events(round_)
    tables = []
    alerts = []
    for row in games:
        game_id = row["pk"]
        clock = _clock_of_row(row, events.get(game_id, []), tournament, now)
        own = game_alerts.get(game_id, [])
        alerts.extend(own)
        open_alerts = sorted((a for a in own if a["open"]), key=_alert_order)
        predicted: dict[str, Any] = next((a["prediction"] for a in own if a["prediction"]), {})
        short, sentence = prediction_words(predicted) if predicted else ("", "")
        for alert in own:
            if alert["kind"] == Alert.Kind.ALERT_MARK:
                alert["prediction_short"] = short
        tables.append(
            {
                "game_id": game_id,
                "table": row["table_number"],
                "pair_yb": _pair_name(row, "pair_yb"),
                "pair_rg": _pair_name(row, "pair_rg"),
                "status": clock.status,
                "status_label": str(CLOCK_STATUS_LABELS[clock.status]),
                "clock": clock.to_json(),
                "moves": row["moves"],
                "progress": predicted.get("progress"),
                "prediction": predicted,
                "prediction_label": sentence,
                # The alerts themselves are in data["alerts"] (once).
                "alerts": [{"id": a["id"], "kind": a["kind"], "open": a["open"]} for a in own],
                "open_alerts": len(open_alerts),
                "_order": (
                    (0, *_alert_order(open_alerts[0])[1:3])
                    if open_alerts
                    else (_BUCKET[clock.status], 0, (clock.remaining_s, 0.0)),
                    row["table_number"],
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
    data["alert_groups"] = alert_groups(alerts)
    return data


def round_attention(*, round: Round) -> dict[str, int]:
    """What waits for a judge in ``round``: open calls and unacknowledged alerts."""
    return {
        "calls": JudgeCall.objects.filter(game__round=round)
        .exclude(status=JudgeCall.Status.CLOSED)
        .count(),
        "alerts": Alert.objects.filter(game__round=round, acknowledged_at__isnull=True).count(),
    }


def round_open_calls(*, round_id: int) -> dict[int, str]:
    """Game id -> status ("open" or "taken") of each open judge call of a round
    (what the hall screen marks; never the reason, which may be private)."""
    return dict(
        JudgeCall.objects.filter(game__round_id=round_id)
        .exclude(status=JudgeCall.Status.CLOSED)
        .values_list("game_id", "status")
    )
