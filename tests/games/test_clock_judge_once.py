"""A clock write checks the judge once: the check is made where the request enters
(``JudgeAtGame``) and the clock service takes the checked judge, as a ruling does
(tests/judging/test_ruling_once.py). A non-judge is refused before the body is read."""

from __future__ import annotations

import pytest
from django.test import Client

import tournament.permissions as permissions
from games.models import GameClock
from games.services.clock import clock_pause, clock_start
from games.services.judges import JudgeAtEvent, JudgeAtGame
from judging.models import JudgeCall
from judging.services.calls import judge_call_close, judge_call_create
from tests.counting import count_calls
from tests.factories import GameFactory, UserFactory, judge_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    game = GameFactory()
    clock_start(game=game)
    return game


@pytest.fixture
def judge(game):
    return judge_of(game.round.tournament)


@pytest.fixture
def checks(monkeypatch):
    """How often someone is checked to be a judge of the event."""
    counted: dict[str, int] = {}
    count_calls(monkeypatch, counted, permissions, "is_judge")
    return counted


def _post(client, game, write, body=None):
    return client.post(
        f"/api/games/{game.pk}/clock/{write}/", body or {}, content_type="application/json"
    )


@pytest.mark.parametrize(
    ("write", "body"),
    [
        ("pause", {"reason": "Dommerkald"}),
        ("resume", None),
        ("extend", {"minutes": 5, "reason": "Langt dommerkald"}),
    ],
)
def test_each_clock_write_of_the_api_checks_the_judge_once(game, judge, checks, write, body):
    if write == "resume":
        clock_pause(judge=JudgeAtGame(game, judge))
    client = Client()
    client.force_login(judge)
    checks["is_judge"] = 0
    answer = _post(client, game, write, body)
    assert answer.status_code == 200, answer.json()
    assert checks == {"is_judge": 1}


@pytest.mark.parametrize(
    ("write", "body"),
    [("pause", {"reason": 5}), ("resume", None), ("extend", {"minutes": "fem", "reason": ""})],
)
def test_a_non_judge_is_refused_before_the_body_is_read(game, write, body):
    client = Client()
    client.force_login(UserFactory(username="tilskuer"))
    answer = _post(client, game, write, body)
    assert answer.status_code == 403
    clock = GameClock.objects.get(game=game)
    assert clock.paused_at is None and clock.extension_minutes == 0


def test_closing_the_call_that_paused_the_clock_checks_the_judge_once(game, judge, checks):
    call = judge_call_create(game=game, client_id="call-0001")
    assert call.paused_clock and GameClock.objects.get(game=game).paused_at is not None
    checks["is_judge"] = 0
    closing = judge_call_close(call=call, judge=JudgeAtEvent(call.tournament, judge))
    assert closing.clock == "resumed"
    assert JudgeCall.objects.get(pk=call.pk).status == JudgeCall.Status.CLOSED
    assert checks == {"is_judge": 1}
