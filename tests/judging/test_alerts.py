"""Raising alerts: exactly once, only when due, the limit puts the game to time up."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from core.errors import NotFound, PermissionDenied
from games.models import Game, GameClock
from games.services.clock import clock_pause, clock_start, clock_stop
from games.services.judges import JudgeAtGame
from judging.models import Alert
from judging.services.alerts import alert_acknowledge, alert_raise_if_due, alerts_raise_due
from tests.factories import GameFactory, TournamentFactory, UserFactory, judge_of

pytestmark = pytest.mark.django_db


def ago(minutes: float) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(minutes=minutes)


@pytest.fixture
def game():
    return GameFactory()


def test_nothing_is_raised_before_the_mark(game):
    clock_start(game=game, at=ago(49))
    assert alerts_raise_due() == 0
    assert alert_raise_if_due(game_id=game.pk, kind="alert") is None
    assert not Alert.objects.exists()


def test_the_alert_mark_is_raised_once_however_often_asked(game):
    clock_start(game=game, at=ago(50.5))
    first = alert_raise_if_due(game_id=game.pk, kind="alert")
    assert first is not None
    assert alert_raise_if_due(game_id=game.pk, kind="alert") is None
    assert alerts_raise_due() == 0
    alert = Alert.objects.get()
    assert (alert.kind, alert.mark_minute, alert.tournament_id) == (
        "alert",
        50,
        game.round.tournament_id,
    )
    assert alert.due_at == GameClock.objects.get(game=game).alert_due_at
    assert alert.raised_at >= alert.due_at
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS


def test_the_limit_puts_the_game_to_time_up_and_raises_a_missed_alert_mark(game):
    clock_start(game=game, at=ago(61))
    # A worker that was down through both marks: the limit comes first here.
    assert alert_raise_if_due(game_id=game.pk, kind="limit") is not None
    assert sorted(Alert.objects.values_list("kind", flat=True)) == ["alert", "limit"]
    game.refresh_from_db()
    assert game.status == Game.Status.TIME_UP
    clock = GameClock.objects.get(game=game)
    assert clock.alert_due_at is None and clock.limit_due_at is None
    assert alerts_raise_due() == 0
    assert Alert.objects.count() == 2


def test_the_sweep_raises_every_due_mark(game):
    late = GameFactory(round=game.round)
    fresh = GameFactory(round=game.round)
    clock_start(game=game, at=ago(52))
    clock_start(game=late, at=ago(65))
    clock_start(game=fresh, at=ago(10))
    assert alerts_raise_due() == 3
    assert set(Alert.objects.values_list("game_id", "kind")) == {
        (game.pk, "alert"),
        (late.pk, "alert"),
        (late.pk, "limit"),
    }
    assert alerts_raise_due() == 0


def test_a_paused_clock_raises_nothing(game):
    judge = judge_of(game.round.tournament)
    clock_start(game=game, at=ago(49.9))
    clock_pause(judge=JudgeAtGame(game, judge))
    assert alerts_raise_due(now=timezone.now() + datetime.timedelta(minutes=30)) == 0
    assert not Alert.objects.exists()


def test_a_finished_game_raises_nothing(game):
    clock_start(game=game, at=ago(70))
    clock_stop(game=game)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert alerts_raise_due() == 0
    assert alert_raise_if_due(game_id=game.pk, kind="limit") is None
    assert not Alert.objects.exists()


def test_a_game_finished_without_stopping_its_clock_raises_nothing(game):
    clock_start(game=game, at=ago(70))
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert alerts_raise_due() == 0
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_game_without_a_clock_raises_nothing(game):
    assert alert_raise_if_due(game_id=game.pk, kind="alert") is None


def test_the_alert_mark_stores_a_prediction_even_without_a_log(game):
    clock_start(game=game, at=ago(51))
    alert = alert_raise_if_due(game_id=game.pk, kind="alert")
    assert alert.prediction["known"] is False
    assert alert.prediction["elapsed_s"] == pytest.approx(51 * 60, abs=5)


def test_acknowledge_first_judge_wins_and_repeats_change_nothing(game):
    tournament = game.round.tournament
    judge_a = judge_of(tournament, "judge-a")
    judge_b = judge_of(tournament, "judge-b")
    clock_start(game=game, at=ago(51))
    alert = alert_raise_if_due(game_id=game.pk, kind="alert")
    first = alert_acknowledge(alert_id=alert.pk, actor=judge_a)
    again = alert_acknowledge(alert_id=alert.pk, actor=judge_b)
    assert first.acknowledged_by == judge_a
    assert again.acknowledged_by == judge_a
    assert again.acknowledged_at == first.acknowledged_at


def test_acknowledge_needs_a_judge_of_this_tournament(game):
    clock_start(game=game, at=ago(51))
    alert = alert_raise_if_due(game_id=game.pk, kind="alert")
    for actor in (judge_of(TournamentFactory(), "stranger"), UserFactory(username="p")):
        with pytest.raises(PermissionDenied):
            alert_acknowledge(alert_id=alert.pk, actor=actor)
    with pytest.raises(NotFound):
        alert_acknowledge(alert_id=alert.pk + 1000, actor=judge_of(game.round.tournament))
    alert.refresh_from_db()
    assert alert.acknowledged_at is None


def test_the_alert_mark_predicts_from_the_move_log(game):
    from games.engine import selfplay_game
    from games.services.move_log import game_record_import

    organiser = judge_of(game.round.tournament, "org-import")
    record = selfplay_game(3)
    game.first_dealer = record["first_dealer"]
    game.save()
    record["moves"] = record["moves"][:200]
    clock_start(game=game, at=ago(51))
    game_record_import(game=game, actor=organiser, record=record)
    alert = alert_raise_if_due(game_id=game.pk, kind="alert")
    p = alert.prediction
    assert p["known"] is True
    assert 0 < p["progress"] < 1
    if not p["stuck"]:
        assert p["predicted_finish_s"] > p["elapsed_s"]
        assert p["overrun_s"] == pytest.approx(p["predicted_finish_s"] - 3600, abs=0.2)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # the raising transaction must really commit
def test_raising_commits_without_waiting_for_the_disk_and_only_that_transaction(
    game, require_postgres
):
    from django.db import connection

    def setting() -> str:
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            return cursor.fetchone()[0]

    seen = []

    def spy(execute, sql, params, many, context):
        if "INSERT" in sql and "judging_alert" in sql:
            with connection.cursor() as cursor:  # inside the raising transaction
                cursor.execute("SHOW synchronous_commit")
                seen.append(cursor.fetchone()[0])
        return execute(sql, params, many, context)

    clock_start(game=game, at=ago(50.5))
    with connection.execute_wrapper(spy):
        assert alert_raise_if_due(game_id=game.pk, kind="alert") is not None
    assert seen == ["off"]
    assert setting() == "on"  # SET LOCAL: the connection's next transactions wait again
