"""The game clock service: state from server time, pause, resume, extend, stop."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from core.errors import ApplicationError, PermissionDenied
from games.models import ClockEvent, Game, GameClock
from games.selectors.clock import clock_state
from games.services import clock as clock_service
from games.services.clock import (
    clock_extend,
    clock_pause,
    clock_resume,
    clock_start,
    clock_start_round,
    clock_started,
    clock_stop,
)
from games.services.judges import JudgeAtGame
from tests.factories import GameFactory, RoundFactory, TournamentFactory, UserFactory, judge_of
from tournament.models import Round

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 11, 28, 10, 0, tzinfo=datetime.UTC)


def at(minutes: float) -> datetime.datetime:
    return T0 + datetime.timedelta(minutes=minutes)


@pytest.fixture
def game():
    return GameFactory()


@pytest.fixture
def judge(game):
    return judge_of(game.round.tournament)


def _state(game, now):
    return clock_state(game=Game.objects.get(pk=game.pk), now=now)


def test_not_started_clock_shows_the_tournament_limit(game):
    state = _state(game, at(0))
    assert state.status == "not_started"
    assert state.limit_s == 3600
    assert state.alert_s == 3000
    assert state.remaining_s == 3600


def test_start_sets_the_game_in_progress_and_the_marks(game):
    clock = clock_start(game=game, at=at(0))
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS
    assert game.started_at == at(0)
    assert clock.alert_due_at == at(50)
    assert clock.limit_due_at == at(60)
    state = _state(game, at(12.5))
    assert state.status == "running"
    assert state.elapsed_s == pytest.approx(750)
    assert state.remaining_s == pytest.approx(2850)
    assert state.server_time == at(12.5).isoformat()


def test_start_twice_changes_nothing(game):
    clock_start(game=game, at=at(0))
    clock_start(game=game, at=at(7))
    clock = GameClock.objects.get(game=game)
    assert clock.started_at == at(0)
    assert ClockEvent.objects.filter(clock=clock, kind="start").count() == 1


def test_limits_come_from_the_tournament(game):
    t = game.round.tournament
    t.time_limit_minutes, t.alert_minutes = 45, 35
    t.save()
    clock = clock_start(game=game, at=at(0))
    assert clock.alert_due_at == at(35)
    assert clock.limit_due_at == at(45)


def test_clock_speed_makes_minutes_pass_faster(game):
    t = game.round.tournament
    t.clock_speed = 60.0  # a clock minute per real second
    t.save()
    clock = clock_start(game=game, at=at(0))
    assert clock.alert_due_at == T0 + datetime.timedelta(seconds=50)
    assert clock.limit_due_at == T0 + datetime.timedelta(seconds=60)
    state = _state(game, T0 + datetime.timedelta(seconds=30))
    assert state.elapsed_s == pytest.approx(30 * 60)


def test_pause_freezes_the_clock_and_resume_moves_the_marks(game, judge, monkeypatch):
    clock_start(game=game, at=at(0))
    monkeypatch.setattr(clock_service.timezone, "now", lambda: at(20))
    clock = clock_pause(judge=JudgeAtGame(game, judge), reason="Dommerkald")
    assert clock.alert_due_at is None and clock.limit_due_at is None
    state = _state(game, at(25))
    assert state.status == "paused"
    assert state.paused is True
    assert state.paused_reason == "Dommerkald"
    assert state.elapsed_s == pytest.approx(20 * 60)
    monkeypatch.setattr(clock_service.timezone, "now", lambda: at(27))
    clock = clock_resume(judge=JudgeAtGame(game, judge))
    assert clock.alert_due_at == at(57)
    assert clock.limit_due_at == at(67)
    assert _state(game, at(30)).elapsed_s == pytest.approx(23 * 60)


def test_extension_moves_both_marks_and_is_listed(game, judge):
    clock_start(game=game, at=at(0))
    clock = clock_extend(judge=JudgeAtGame(game, judge), minutes=5, reason="Langt dommerkald")
    assert clock.alert_due_at == at(55)
    assert clock.limit_due_at == at(65)
    state = _state(game, at(10))
    assert state.limit_s == 65 * 60
    assert state.alert_s == 55 * 60
    assert state.extensions[0].minutes == 5
    assert state.extensions[0].reason == "Langt dommerkald"
    assert state.extensions[0].by == judge.username


@pytest.mark.parametrize(
    ("minutes", "reason", "code"),
    [
        (5, "", "clock_reason_required"),
        (5, "   ", "clock_reason_required"),
        (0, "x", "clock_extension_minutes"),
        (61, "x", "clock_extension_minutes"),
        ("fem", "x", "clock_extension_minutes"),
        (None, "x", "clock_extension_minutes"),
        (True, "x", "clock_extension_minutes"),
        (5, "x" * 301, "clock_reason_too_long"),
    ],
)
def test_bad_extension_is_refused_in_both_languages_and_changes_nothing(
    client, game, judge, minutes, reason, code
):
    clock_start(game=game, at=at(0))
    client.force_login(judge)
    answer = client.post(
        f"/api/games/{game.pk}/clock/extend/",
        {"minutes": minutes, "reason": reason},
        content_type="application/json",
    )
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == code
    assert error["message_da"] and error["message_en"]
    assert error["message_da"] != error["message_en"]
    clock = GameClock.objects.get(game=game)
    assert clock.extension_minutes == 0
    assert clock.limit_due_at == at(60)


def test_only_a_judge_of_this_tournament_may_touch_the_clock(game):
    clock_start(game=game, at=at(0))
    other_judge = judge_of(TournamentFactory(), username="other-judge")
    nobody = UserFactory(username="player")
    for actor in (other_judge, nobody):
        with pytest.raises(PermissionDenied):
            clock_pause(judge=JudgeAtGame(game, actor), reason="")
        with pytest.raises(PermissionDenied):
            clock_extend(judge=JudgeAtGame(game, actor), minutes=5, reason="x")
    assert GameClock.objects.get(game=game).paused_at is None


def test_double_pause_and_resume_without_pause_are_refused(game, judge):
    clock_start(game=game, at=at(0))
    clock_pause(judge=JudgeAtGame(game, judge))
    with pytest.raises(ApplicationError) as err:
        clock_pause(judge=JudgeAtGame(game, judge))
    assert err.value.code == "clock_already_paused"
    clock_resume(judge=JudgeAtGame(game, judge))
    with pytest.raises(ApplicationError) as err:
        clock_resume(judge=JudgeAtGame(game, judge))
    assert err.value.code == "clock_not_paused"
    assert ClockEvent.objects.filter(kind="pause").count() == 1


def test_pausing_a_clock_that_never_started_is_refused(game, judge):
    with pytest.raises(ApplicationError) as err:
        clock_pause(judge=JudgeAtGame(game, judge))
    assert err.value.code == "clock_not_started"


def test_stop_freezes_the_clock_and_clears_the_marks(game, judge):
    clock_start(game=game, at=at(0))
    clock = clock_stop(game=game, at=at(42))
    assert clock.alert_due_at is None and clock.limit_due_at is None
    state = _state(game, at(59))
    assert state.status == "stopped"
    assert state.elapsed_s == pytest.approx(42 * 60)
    assert clock_stop(game=game, at=at(50)).stopped_at == at(42)
    with pytest.raises(ApplicationError) as err:
        clock_extend(judge=JudgeAtGame(game, judge), minutes=5, reason="x")
    assert err.value.code == "clock_stopped"


def test_stop_while_paused_counts_up_to_the_pause(game, judge, monkeypatch):
    clock_start(game=game, at=at(0))
    monkeypatch.setattr(clock_service.timezone, "now", lambda: at(30))
    clock_pause(judge=JudgeAtGame(game, judge))
    clock_stop(game=game, at=at(40))
    assert _state(game, at(45)).elapsed_s == pytest.approx(30 * 60)


def test_stop_without_a_clock_does_nothing(game):
    assert clock_stop(game=game) is None
    assert not GameClock.objects.exists()


def test_a_running_clock_past_the_limit_reads_time_up(game):
    clock_start(game=game, at=at(0))
    state = _state(game, at(61))
    assert state.status == "time_up"
    assert state.remaining_s == 0
    assert state.elapsed_s == 3600


def test_start_round_starts_every_table_at_the_same_instant():
    round_ = RoundFactory()
    games = GameFactory.create_batch(3, round=round_)
    clock_start_round(round=round_, at=at(0))
    round_.refresh_from_db()
    assert round_.status == Round.Status.IN_PROGRESS
    clocks = GameClock.objects.filter(game__in=games)
    assert clocks.count() == 3
    assert {c.started_at for c in clocks} == {at(0)}
    assert set(Game.objects.filter(round=round_).values_list("status", flat=True)) == {
        "in_progress"
    }


def test_clock_started_uses_each_games_started_at_and_is_idempotent():
    round_ = RoundFactory()
    g1, g2 = GameFactory.create_batch(2, round=round_)
    Game.objects.filter(pk=g1.pk).update(started_at=at(0), status="in_progress")
    Game.objects.filter(pk=g2.pk).update(started_at=at(3), status="in_progress")
    games = list(Game.objects.filter(round=round_))
    assert len(clock_started(games=games)) == 2
    assert clock_started(games=games) == []
    assert GameClock.objects.get(game=g2).limit_due_at == at(63)


def test_a_finished_game_cannot_start_its_clock(game):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    with pytest.raises(ApplicationError) as err:
        clock_start(game=game)
    assert err.value.code == "clock_game_finished"
    assert not GameClock.objects.exists()


def test_marks_are_scheduled_after_commit(game, django_capture_on_commit_callbacks, monkeypatch):
    sent = []
    from games import tasks

    monkeypatch.setattr(
        tasks.clock_mark_due, "apply_async", lambda args, eta, **kw: sent.append((*args, eta))
    )
    with django_capture_on_commit_callbacks(execute=True):
        clock_start(game=game, at=at(0))
    assert sorted(sent) == sorted([(game.pk, "alert", at(50)), (game.pk, "limit", at(60))])


def test_a_broker_that_is_down_does_not_break_the_start(
    game, django_capture_on_commit_callbacks, monkeypatch
):
    from games import tasks

    def down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.clock_mark_due, "apply_async", down)
    with django_capture_on_commit_callbacks(execute=True):
        clock_start(game=game, at=timezone.now())
    assert GameClock.objects.get(game=game).alert_due_at is not None


def test_round_start_starts_every_tables_clock():
    from competition.services.pairing import round_pair, round_publish, round_start
    from tests.competition.helpers import event_with_pairs

    tournament, organiser, _ = event_with_pairs(8)
    round_ = round_pair(tournament=tournament, actor=organiser)
    round_publish(round=round_, actor=organiser)
    round_start(round=round_, actor=organiser)
    round_.refresh_from_db()
    clocks = GameClock.objects.filter(game__round=round_)
    assert clocks.count() == round_.games.count() == 4
    assert {c.started_at for c in clocks} == {round_.started_at}
    assert all(c.alert_due_at == round_.started_at + datetime.timedelta(minutes=50) for c in clocks)
