"""A ruling checks who rules once and reads the game's log once, however many entries
it names: the check is made where the request enters (``JudgeAtTable``) and the
table is passed down to the ruling and to closing its call."""

from __future__ import annotations

import pytest

import judging.services.rulings as rulings_module
import tournament.permissions as permissions
from judging.models import JudgeCall, Ruling
from judging.services.calls import judge_call_create
from judging.services.rulings import JudgeAtTable, void_preview
from tests.counting import count_calls

pytestmark = pytest.mark.django_db


@pytest.fixture
def counted(monkeypatch):
    """How often the judge is checked and the game's log is read."""
    counts: dict[str, int] = {}
    count_calls(monkeypatch, counts, permissions, "is_judge")
    count_calls(monkeypatch, counts, rulings_module, "game_log")
    return counts


def test_a_void_of_several_entries_through_the_api_checks_and_reads_once(
    api, logged, judge, counted
):
    affected = [a["entry"] for a in void_preview(table=JudgeAtTable(logged, judge), seq=5)]
    assert len(affected) >= 2
    counted.update(is_judge=0, game_log=0)
    api.force_authenticate(judge)
    answer = api.post(
        f"/api/judging/games/{logged.pk}/rulings/",
        {"kind": "void", "seq": 5, "also": affected, "reason": "Forkert kort"},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert counted == {"is_judge": 1, "game_log": 1}


def _uphold_answering(api, game, judge, call):
    """The judge upholds entry 10 through the API, answering ``call``."""
    api.force_authenticate(judge)
    answer = api.post(
        f"/api/judging/games/{game.pk}/rulings/",
        {"kind": "uphold", "seq": 10, "reason": "Lovligt", "call": call.pk},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    return answer


def test_a_ruling_that_closes_its_call_checks_the_judge_once_in_judging(
    api, logged, judge, counted, monkeypatch
):
    call = judge_call_create(game=logged, client_id="call-0001")
    # The table's clock is not paused by this call: closing it resumes nothing.
    JudgeCall.objects.filter(pk=call.pk).update(paused_clock=False)
    counted.update(is_judge=0, game_log=0)
    answer = _uphold_answering(api, logged, judge, call)
    assert answer.json()["call_closing"]["closed_now"] is True
    assert counted == {"is_judge": 1, "game_log": 1}
    assert Ruling.objects.get().call_id == call.pk
    assert JudgeCall.objects.get(pk=call.pk).status == JudgeCall.Status.CLOSED


def test_a_ruling_that_closes_the_call_that_paused_the_clock_checks_the_judge_once(
    api, logged, judge, counted
):
    call = judge_call_create(game=logged, client_id="call-0002")
    assert JudgeCall.objects.get(pk=call.pk).paused_clock
    counted.update(is_judge=0, game_log=0)
    answer = _uphold_answering(api, logged, judge, call)
    assert answer.json()["call_closing"]["clock"] == "resumed"
    # The clock's resume takes the ruling's checked judge.
    assert counted["is_judge"] == 1
