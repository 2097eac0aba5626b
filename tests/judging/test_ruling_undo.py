"""A judge undoes a ruling (RULES.md J2): with a reason, as a judge entry in the log."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.errors import ApplicationError, PermissionDenied
from games.engine import replay
from games.models import Game
from games.selectors import game_state, move_log_verify
from games.services.judges import JudgeAtEvent
from games.services.move_log import move_submit
from judging.models import Ruling
from judging.services.ruling_undo import ruling_undo
from judging.services.rulings import ruling_penalty, ruling_result, ruling_void
from tournament.models import AuditEntry

pytestmark = pytest.mark.django_db


def _texts(game):
    return [e.text for e in game_state(game=game).entries or ()]


@pytest.fixture
def void_ruling(logged, judge):
    return ruling_void(game=logged, actor=judge, seq=10, reason="Wrong pawn.")


def test_undoing_a_void_brings_the_entry_back(logged, judge, record, void_ruling):
    undo = ruling_undo(
        ruling_id=void_ruling.pk,
        judge=JudgeAtEvent(logged.round.tournament, judge),
        reason="The pawn was right.",
    )
    assert undo.kind == Ruling.Kind.UNDO and undo.rule == "J2" and undo.judge == judge
    assert undo.log_entries == [{"seq": 12, "text": "! UNDO 11"}]
    assert undo.data == {"undoes": void_ruling.pk, "entries": [11]}
    assert _texts(logged)[-2:] == ["! VOID 10", "! UNDO 11"]
    ten = replay({**record, "moves": record["moves"][:10]})
    state = game_state(game=logged)
    assert state.position == ten.position.to_json()
    assert state.to_move == ten.state.to_move
    void_ruling.refresh_from_db()
    assert void_ruling.undone_by == undo
    assert move_log_verify(game=logged).ok
    assert AuditEntry.objects.filter(action="ruling_undo", actor=judge).count() == 1


def test_a_ruling_with_two_entries_is_undone_whole(logged, judge, record):
    moves = record["moves"][:10]
    ruling = ruling_void(
        game=logged, actor=judge, seq=9, also=[10], reason="Both wrong.",
        position=replay({**record, "moves": moves}).position,
    )  # fmt: skip
    assert len(ruling.log_entries) == 2
    undo = ruling_undo(
        ruling_id=ruling.pk,
        judge=JudgeAtEvent(logged.round.tournament, judge),
        reason="Both were right.",
    )
    assert undo.log_entries == [{"seq": 13, "text": "! UNDO 11 12"}]
    assert game_state(game=logged).position == replay({**record, "moves": moves}).position.to_json()


def test_a_penalty_is_undone(logged, judge):
    ruling = ruling_penalty(game=logged, actor=judge, penalty="P1", seat="R", reason="Card.")
    ruling_undo(
        ruling_id=ruling.pk,
        judge=JudgeAtEvent(logged.round.tournament, judge),
        reason="It was the partner.",
    )
    assert _texts(logged)[-1] == "! UNDO 11"


def test_the_reason_is_required_and_nothing_changes_without_it(api, logged, judge, void_ruling):
    api.force_authenticate(judge)
    url = f"/api/judging/rulings/{void_ruling.pk}/undo/"
    blank = api.post(url, {"reason": "  "}, format="json")
    assert blank.status_code == 400 and blank.json()["error"]["code"] == "reason_required"
    assert _texts(logged)[-1] == "! VOID 10"


def test_only_a_judge_of_this_tournament_undoes(logged, void_ruling, other_judge, player):
    for actor in (other_judge, player):
        with pytest.raises(PermissionDenied):
            ruling_undo(
                ruling_id=void_ruling.pk,
                judge=JudgeAtEvent(logged.round.tournament, actor),
                reason="No.",
            )
    assert _texts(logged)[-1] == "! VOID 10"
    void_ruling.refresh_from_db()
    assert void_ruling.undone_by is None


def test_a_ruling_is_undone_once_and_an_undo_is_not_undone(logged, judge, void_ruling):
    undo = ruling_undo(
        ruling_id=void_ruling.pk,
        judge=JudgeAtEvent(logged.round.tournament, judge),
        reason="Right after all.",
    )
    with pytest.raises(ApplicationError) as again:
        ruling_undo(
            ruling_id=void_ruling.pk,
            judge=JudgeAtEvent(logged.round.tournament, judge),
            reason="Twice.",
        )
    assert again.value.code == "J2" and again.value.status_code == 409
    with pytest.raises(ApplicationError) as of_undo:
        ruling_undo(
            ruling_id=undo.pk,
            judge=JudgeAtEvent(logged.round.tournament, judge),
            reason="Undo the undo.",
        )
    assert of_undo.value.code == "J2"
    assert _texts(logged)[-1] == "! UNDO 11"
    assert Ruling.objects.filter(kind=Ruling.Kind.UNDO).count() == 1


def test_an_undo_the_engine_refuses_stores_nothing(logged, judge, record, void_ruling):
    # After the void the same seat played again: undoing the void would put
    # that entry out of turn, so the engine names it and nothing is stored.
    move_submit(game=logged, text=record["moves"][9], client_id="again-0012", expected_seq=11)
    with pytest.raises(ApplicationError) as err:
        ruling_undo(
            ruling_id=void_ruling.pk,
            judge=JudgeAtEvent(logged.round.tournament, judge),
            reason="Right after all.",
        )
    assert err.value.status_code == 422 and err.value.code == "D2"
    assert "12" in err.value.message_en and "Void that entry first" in err.value.message_en
    assert len(_texts(logged)) == 12
    void_ruling.refresh_from_db()
    assert void_ruling.undone_by is None
    assert not Ruling.objects.filter(kind=Ruling.Kind.UNDO).exists()


def test_a_result_is_changed_not_undone(logged, judge):
    ruling = ruling_result(game=logged, actor=judge, winner="YB", reason="Forfeit.")
    with pytest.raises(ApplicationError) as err:
        ruling_undo(
            ruling_id=ruling.pk, judge=JudgeAtEvent(logged.round.tournament, judge), reason="No."
        )
    assert err.value.code == "ruling_result_undo"


def test_a_finished_game_is_not_changed(logged, judge, void_ruling):
    Game.objects.filter(pk=logged.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(ApplicationError) as err:
        ruling_undo(
            ruling_id=void_ruling.pk,
            judge=JudgeAtEvent(logged.round.tournament, judge),
            reason="Late.",
        )
    assert err.value.code == "game_finished"


def test_an_unknown_ruling_is_not_found(logged, judge):
    for ruling_id in (999999, "1", None, True):
        with pytest.raises(ApplicationError) as err:
            ruling_undo(
                ruling_id=ruling_id, judge=JudgeAtEvent(logged.round.tournament, judge), reason="?"
            )
        assert err.value.status_code == 404


def test_the_api_undoes_with_a_reason(api, logged, judge, void_ruling):
    api.force_authenticate(judge)
    url = f"/api/judging/rulings/{void_ruling.pk}/undo/"
    missing = api.post(url, {}, format="json")
    assert missing.status_code == 400 and missing.json()["error"]["code"] == "reason_required"
    res = api.post(url, {"reason": "Right after all."}, format="json")
    assert res.status_code == 201
    body = res.json()
    assert body["kind"] == "undo" and body["rule"] == "J2"
    assert body["entries"] == [{"seq": 12, "text": "! UNDO 11"}]
    again = api.post(url, {"reason": "Twice."}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "J2"


def test_the_api_refuses_a_judge_of_another_tournament(api, logged, void_ruling, other_judge):
    api.force_authenticate(other_judge)
    res = api.post(f"/api/judging/rulings/{void_ruling.pk}/undo/", {"reason": "No."}, format="json")
    assert res.status_code == 403
    error = res.json()["error"]
    assert error["message_da"] and error["message_en"]
    assert _texts(logged)[-1] == "! VOID 10"


def test_the_review_page_offers_the_undo(client, logged, judge, void_ruling):
    client.force_login(judge)
    slug = logged.round.tournament.slug
    page = client.get(reverse("judging:review", args=[slug, logged.pk])).content.decode()
    assert page.count('name="action" value="undo"') == 1
    assert f'name="ruling" value="{void_ruling.pk}"' in page
    answer = client.post(
        reverse("judging:rule", args=[slug, logged.pk]),
        {"action": "undo", "ruling": str(void_ruling.pk), "reason": "Rigtig brik", "at": "11"},
    )
    assert answer.status_code == 302 and "at=11" in answer["Location"]
    assert _texts(logged)[-1] == "! UNDO 11"
    page = client.get(answer["Location"])
    html = page.content.decode()
    assert "Kendelsen er omgjort" in html  # the judge is told what happened
    assert 'value="undo"' not in html  # nothing left to undo: an undo is not undone
    assert "omgjort" in html  # the undone ruling and its entry are marked
    assert page.context["entry"]["mark"] == "undone"


def test_an_undo_without_a_reason_comes_back_on_the_page(client, logged, judge, void_ruling):
    client.force_login(judge)
    slug = logged.round.tournament.slug
    answer = client.post(
        reverse("judging:rule", args=[slug, logged.pk]),
        {"action": "undo", "ruling": str(void_ruling.pk), "reason": ""},
    )
    assert answer.status_code == 400
    assert "Skriv begrundelsen" in answer.content.decode()
    assert _texts(logged)[-1] == "! VOID 10"
