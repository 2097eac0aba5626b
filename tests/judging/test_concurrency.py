"""Racing taps and racing judges on real PostgreSQL."""

from __future__ import annotations

import pytest

from core.errors import ApplicationError
from games.services.clock import clock_start
from games.services.judges import JudgeAtEvent
from judging.models import JudgeCall, Ruling
from judging.services.calls import judge_call_create, judge_call_find, judge_call_take
from judging.services.rulings import ruling_void
from tests.concurrency import run_threads
from tests.factories import GameFactory, judge_of
from tests.judging.conftest import log_moves

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_many_devices_calling_at_once_make_one_call(require_postgres):
    game = GameFactory(first_dealer="Y")
    clock_start(game=game)
    errors = run_threads(lambda i: judge_call_create(game=game, client_id=f"device-{i:04d}"), 6)
    assert not errors, errors
    assert JudgeCall.objects.filter(game=game).count() == 1
    assert JudgeCall.objects.get(game=game).paused_clock


def test_two_judges_voiding_the_same_entry_rule_once(require_postgres, record):
    game = GameFactory(first_dealer="Y")
    log_moves(game, record["moves"][:10])
    judges = [judge_of(game.round.tournament, f"dommer{i}") for i in range(2)]
    call = judge_call_create(game=game, client_id="device-0001")
    # Each judge's request finds the call itself.
    takers = run_threads(
        lambda i: judge_call_take(
            call=judge_call_find(call.pk), judge=JudgeAtEvent(call.tournament, judges[i])
        ),
        2,
    )
    assert not takers
    errors = run_threads(
        lambda i: ruling_void(game=game, actor=judges[i], seq=10, reason=f"dommer {i}"), 2
    )
    # The second void finds entry 10 already void: refused, nothing stored twice.
    assert len(errors) == 1 and isinstance(errors[0], ApplicationError)
    assert Ruling.objects.filter(game=game).count() == 1
