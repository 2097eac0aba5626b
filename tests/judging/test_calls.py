"""Judge calls: a table calls, a judge takes and closes; the clock pauses meanwhile."""

from __future__ import annotations

import pytest

from core.errors import ApplicationError, PermissionDenied
from games.models import Game, GameClock
from games.selectors.clock import clock_state
from games.services.judges import JudgeAtEvent, JudgeAtGame
from judging.models import JudgeCall
from judging.services.calls import judge_call_close, judge_call_create, judge_call_take

pytestmark = pytest.mark.django_db


def _status(game):
    # A fresh instance: the game caches its clock row.
    return clock_state(game=Game.objects.get(pk=game.pk)).status


def test_a_table_calls_about_an_entry(logged):
    call = judge_call_create(game=logged, client_id="call-0001", reason="Forkert brik", seq=10)
    assert call.status == JudgeCall.Status.OPEN
    assert call.seq == 10 and call.entry_text.startswith(("Y ", "R ", "B ", "G "))
    assert call.reason == "Forkert brik"


def test_a_double_tap_makes_one_call(logged):
    first = judge_call_create(game=logged, client_id="call-0001")
    again = judge_call_create(game=logged, client_id="call-0001")
    other_device = judge_call_create(game=logged, client_id="call-0002")
    assert first.pk == again.pk == other_device.pk
    assert JudgeCall.objects.filter(game=logged).count() == 1


def test_pointing_at_a_missing_entry_changes_nothing(logged):
    with pytest.raises(ApplicationError) as err:
        judge_call_create(game=logged, client_id="call-0001", seq=99)
    assert err.value.code == "entry_not_found"
    assert err.value.message_da and err.value.message_en
    assert not JudgeCall.objects.exists()


def test_a_bad_client_id_is_refused_at_the_api(api, logged, token):
    from django.urls import reverse

    answer = api.post(reverse("api:table-judge", args=[token]), {"client_id": "x"}, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "client_id_invalid" and error["field"] == "client_id"
    assert not JudgeCall.objects.exists()


def test_the_clock_pauses_while_the_call_is_open(logged, judge):
    call = judge_call_create(game=logged, client_id="call-0001", reason="tvist")
    assert call.paused_clock
    assert _status(logged) == "paused"
    judge_call_take(call=call, judge=JudgeAtEvent(call.tournament, judge))
    closing = judge_call_close(call=call, judge=JudgeAtEvent(call.tournament, judge))
    assert closing.call.status == JudgeCall.Status.CLOSED
    assert (closing.closed, closing.clock) == (True, "resumed")
    assert closing.message_da == "Tilkaldet er lukket, og uret kører igen."
    assert _status(logged) == "running"
    # Closing twice changes nothing (and does not pause/resume again).
    again = judge_call_close(call=call, judge=JudgeAtEvent(call.tournament, judge))
    assert (again.closed, again.clock) == (False, "running")
    assert (again.message_en, again.message_da) == (
        "The call was already closed.", "Tilkaldet var allerede lukket."
    )  # fmt: skip
    assert _status(logged) == "running"


def test_without_the_setting_the_clock_runs_on(logged):
    tournament = logged.round.tournament
    tournament.pause_clock_on_call = False
    tournament.save()
    logged.round.tournament.refresh_from_db()
    call = judge_call_create(game=logged, client_id="call-0001")
    assert not call.paused_clock
    assert GameClock.objects.get(game=logged).paused_at is None


def test_a_clock_paused_by_hand_is_left_paused_after_the_call(logged, judge):
    from games.services.clock import clock_pause

    clock_pause(judge=JudgeAtGame(logged, judge), reason="toiletpause")
    call = judge_call_create(game=logged, client_id="call-0001")
    assert not call.paused_clock
    closing = judge_call_close(call=call, judge=JudgeAtEvent(call.tournament, judge))
    assert _status(logged) == "paused"
    # ... and the judge is told so, and why.
    assert closing.clock == "paused"
    assert "stays paused: it was paused by hand (toiletpause)" in closing.message_en
    assert "står stadig på pause" in closing.message_da


def test_the_first_judge_to_take_wins(logged, judge, tournament):
    from tests.factories import judge_of

    second = judge_of(tournament, "dommer2")
    call = judge_call_create(game=logged, client_id="call-0001")
    judge_call_take(call=call, judge=JudgeAtEvent(call.tournament, judge))
    again = judge_call_take(call=call, judge=JudgeAtEvent(call.tournament, second))
    assert again.taken_by == judge


def test_only_judges_of_this_event_take_or_close(logged, other_judge, player):
    call = judge_call_create(game=logged, client_id="call-0001")
    for actor in (other_judge, player):
        with pytest.raises(PermissionDenied):
            judge_call_take(call=call, judge=JudgeAtEvent(call.tournament, actor))
        with pytest.raises(PermissionDenied):
            judge_call_close(call=call, judge=JudgeAtEvent(call.tournament, actor))
    call.refresh_from_db()
    assert call.status == JudgeCall.Status.OPEN and call.taken_by is None


def test_a_new_call_after_the_last_one_closed(logged, judge):
    first = judge_call_create(game=logged, client_id="call-0001")
    judge_call_close(call=first, judge=JudgeAtEvent(first.tournament, judge))
    second = judge_call_create(game=logged, client_id="call-0002")
    assert second.pk != first.pk and second.status == JudgeCall.Status.OPEN
