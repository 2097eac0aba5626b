"""What the judges did, read for the tournament's records (the printed incident report)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games.models import Game
from games.selectors import ReplayRuling, TableRuling
from judging.models import Alert, JudgeCall, Ruling
from tournament.models import Tournament


def rulings_for_game(*, game: Game) -> QuerySet[Ruling]:
    """The rulings given at ``game``, with their judge."""
    return Ruling.objects.filter(game=game).select_related("judge")


def rulings_for_tournament(*, tournament: Tournament) -> QuerySet[Ruling]:
    """Every ruling of ``tournament``, with its game, judge and pair."""
    return Ruling.objects.filter(tournament=tournament).select_related(
        "game__round", "judge", "pair__player_1", "pair__player_2"
    )


def result_ruling_game_ids(*, tournament: Tournament) -> QuerySet[Ruling, Any]:
    """The ids of the games whose result a ruling or an adjudication explains (a subquery)."""
    return Ruling.objects.filter(
        tournament=tournament, kind__in=[Ruling.Kind.RESULT, Ruling.Kind.ADJUDICATION]
    ).values("game_id")


def alerts_for_tournament(*, tournament: Tournament) -> QuerySet[Alert]:
    """Every clock alert of ``tournament``, with its game and who acknowledged it."""
    return Alert.objects.filter(tournament=tournament).select_related(
        "game__round", "acknowledged_by"
    )


def alert_is_time_limit(alert: Alert) -> bool:
    """Whether ``alert`` says the time limit was reached (not only the warning mark)."""
    return alert.kind == Alert.Kind.TIME_LIMIT


def judge_calls_for_tournament(*, tournament: Tournament) -> QuerySet[JudgeCall]:
    """Every judge call of ``tournament``, with its game and the judges who took and closed it."""
    return JudgeCall.objects.filter(tournament=tournament).select_related(
        "game__round", "taken_by", "closed_by"
    )


TABLE_RULING_KINDS = (
    Ruling.Kind.VOID,
    Ruling.Kind.UNDO,
    Ruling.Kind.POSITION,
    Ruling.Kind.PENALTY,
    Ruling.Kind.WARNING,
)
"""The rulings the table device tells its players of: they change the log or punish."""

TABLE_RULINGS_SHOWN = 5


def judge_name(user: Any) -> str:
    """A judge as the players see them: the full name, else the username."""
    if user is None:
        return ""
    return (user.get_full_name() or "").strip() or user.get_username()


def table_rulings(*, game: Game) -> list[TableRuling]:
    """The latest rulings on ``game`` the table shows (newest last): kind, the
    judge's reason and name, the entries concerned. Nothing about other games."""
    rows = list(
        Ruling.objects.filter(game=game, kind__in=TABLE_RULING_KINDS)
        .select_related("judge")
        .order_by("-created_at", "-pk")[:TABLE_RULINGS_SHOWN]
    )
    return [
        TableRuling(
            id=r.pk,
            kind=r.kind,
            reason=r.reason,
            judge=judge_name(r.judge),
            log=[str(e["text"]) for e in r.log_entries if isinstance(e, dict) and "text" in e],
            at=r.created_at.isoformat(),
        )
        for r in reversed(rows)
    ]


def replay_rulings(*, game: Game) -> list[ReplayRuling]:
    """Every ruling given at ``game``, oldest first, as its public replay shows it:
    what was ruled (in words), the reason and the judge entries it wrote."""
    rows = Ruling.objects.filter(game=game).order_by("created_at", "pk")
    return [
        ReplayRuling(
            kind=r.kind,
            label=str(r.get_kind_display()),
            reason=r.reason,
            log=tuple(str(e["text"]) for e in r.log_entries if isinstance(e, dict) and "text" in e),
        )
        for r in rows
    ]
