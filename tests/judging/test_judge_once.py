"""Every judge write checks the judge once: the review page checks where the request
enters (``JudgeAtEvent``) and hands the checked judge down to rulings, the clock,
calls and undos; the API's call take and close and its undo check the judge of the
call's or ruling's event once and pass that down (as a ruling does,
tests/judging/test_ruling_once.py). A call or ruling of another event stays refused."""

from __future__ import annotations

import pytest
from django.urls import reverse

import judging.views as views
import tournament.permissions as permissions

# The event bar of every event page asks whether to link the judge's dashboard: a
# read for the page's links, not a check of who acts. Imported here, before any
# count, so it keeps the check itself and is not counted.
import tournament.templatetags.event_nav  # noqa: F401
from core.errors import PermissionDenied
from games.selectors import game_state
from games.services.clock import clock_pause
from games.services.judges import JudgeAtEvent, JudgeAtGame
from judging.models import JudgeCall, Ruling
from judging.services.calls import judge_call_close, judge_call_create, judge_call_take
from judging.services.ruling_undo import ruling_undo
from judging.services.rulings import ruling_void
from tests.counting import count_calls
from tests.factories import GameFactory, judge_of
from tests.judging.conftest import log_moves

pytestmark = pytest.mark.django_db


@pytest.fixture
def checks(monkeypatch):
    """How often someone is checked to be a judge of the event (the pages' own
    import of the check counted too)."""
    counted: dict[str, int] = {}
    count_calls(monkeypatch, counted, permissions, "is_judge", views)
    return counted


def _position(game):
    state = game_state(game=game, with_entries=False, with_legal=False)
    return " ".join(f"{key}={','.join(pawns)}" for key, pawns in state.position.items())


def _form(action, game, judge):
    """The fields the page's button posts, with what the action needs made first."""
    if action == "void":
        return {"seq": "10", "reason": "Forkert brik", "at": "10"}
    if action == "position":
        return {"position": _position(game), "reason": "Tælt om"}
    if action == "penalty":
        return {"penalty": "P1", "seat": "Y", "reason": "Rørte brikken først"}
    if action == "warning":
        return {"seat": "R", "reason": "Snak ved bordet"}
    if action == "resume":
        clock_pause(judge=JudgeAtGame(game, judge), reason="pause")
        return {"at": "3"}
    if action in ("take", "close"):
        call = judge_call_create(game=game, client_id="table-call-1")
        return {"call": str(call.pk)}
    assert action == "undo"
    ruling = ruling_void(game=game, actor=judge, seq=10, reason="Forkert brik")
    return {"ruling": str(ruling.pk), "reason": "Rigtig brik", "at": "11"}


@pytest.mark.parametrize(
    "action", ["void", "position", "penalty", "warning", "resume", "take", "close", "undo"]
)
def test_each_action_of_the_review_page_checks_the_judge_once(
    client, logged, judge, checks, action
):
    form = {"action": action, **_form(action, logged, judge)}
    client.force_login(judge)
    url = reverse("judging:rule", args=[logged.round.tournament.slug, logged.pk])
    checks["is_judge"] = 0
    answer = client.post(url, form)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert answer["Location"].startswith(
        reverse("judging:review", args=[logged.round.tournament.slug, logged.pk])
    )
    assert checks == {"is_judge": 1}


def test_the_review_page_checks_the_judge_once(client, logged, judge, checks):
    client.force_login(judge)
    checks["is_judge"] = 0
    page = client.get(reverse("judging:review", args=[logged.round.tournament.slug, logged.pk]))
    assert page.status_code == 200 and page.context["void_effects"] is not None
    assert checks == {"is_judge": 1}


def test_a_refused_action_of_the_review_page_checks_the_judge_once(client, logged, judge, checks):
    # The page comes back with the error and the void preview: no second check.
    client.force_login(judge)
    url = reverse("judging:rule", args=[logged.round.tournament.slug, logged.pk])
    checks["is_judge"] = 0
    answer = client.post(url, {"action": "void", "seq": "10", "reason": "", "at": "10"})
    assert answer.status_code == 400
    assert checks == {"is_judge": 1}


@pytest.mark.parametrize("write", ["take", "close"])
def test_each_call_write_of_the_api_checks_the_judge_once(api, logged, judge, checks, write):
    # These two checked once already; the count keeps them there now that the
    # view checks and the service takes the checked judge.
    call = judge_call_create(game=logged, client_id="table-call-1")
    api.force_authenticate(judge)
    checks["is_judge"] = 0
    answer = api.post(f"/api/judging/calls/{call.pk}/{write}/", {}, format="json")
    assert answer.status_code == 200, answer.json()
    assert checks == {"is_judge": 1}


def test_an_undo_through_the_api_checks_the_judge_once(api, logged, judge, checks):
    ruling = ruling_void(game=logged, actor=judge, seq=10, reason="Forkert brik")
    api.force_authenticate(judge)
    checks["is_judge"] = 0
    answer = api.post(
        f"/api/judging/rulings/{ruling.pk}/undo/", {"reason": "Rigtig brik"}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    assert checks == {"is_judge": 1}


# --- a call or ruling of another event -------------------------------------------


def test_a_judge_checked_at_another_event_cannot_take_close_or_undo_here(
    logged, other_judge, judge
):
    other_event = other_judge.tournament_roles.get().tournament
    checked = JudgeAtEvent(other_event, other_judge)
    call = judge_call_create(game=logged, client_id="table-call-1")
    ruling = ruling_void(game=logged, actor=judge, seq=10, reason="Forkert brik")
    for write in (
        lambda: judge_call_take(call=call, judge=checked),
        lambda: judge_call_close(call=call, judge=checked),
        lambda: ruling_undo(ruling_id=ruling.pk, judge=checked, reason="Nej"),
    ):
        with pytest.raises(PermissionDenied) as refused:
            write()
        assert refused.value.status_code == 403 and refused.value.code == "permission_denied"
    call.refresh_from_db()
    assert call.status == JudgeCall.Status.OPEN and call.taken_by is None
    assert Ruling.objects.get(pk=ruling.pk).undone_by is None


@pytest.mark.parametrize("action", ["take", "close", "undo"])
def test_the_review_page_refuses_a_call_or_ruling_of_another_event(
    client, logged, judge, record, action
):
    # The same 403 on the review page as before: the judge judges only this event.
    other = GameFactory(first_dealer="Y")
    other_judge = judge_of(other.round.tournament, "fremmed")
    if action == "undo":
        log_moves(other, record["moves"][:10])
        target = {"ruling": str(ruling_void(game=other, actor=other_judge, seq=10, reason="x").pk)}
        target["reason"] = "Rigtig brik"
    else:
        target = {"call": str(judge_call_create(game=other, client_id="table-call-9").pk)}
    client.force_login(judge)
    url = reverse("judging:rule", args=[logged.round.tournament.slug, logged.pk])
    answer = client.post(url, {"action": action, **target})
    assert answer.status_code == 403
    assert (
        "Kun en dommer eller arrangør af denne turnering må gøre dette." in answer.content.decode()
    )
    assert not JudgeCall.objects.filter(status=JudgeCall.Status.TAKEN).exists()
    assert not JudgeCall.objects.filter(status=JudgeCall.Status.CLOSED).exists()
    assert not Ruling.objects.filter(kind=Ruling.Kind.UNDO).exists()
