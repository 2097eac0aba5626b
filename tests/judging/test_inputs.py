"""The input boundary of judging: the API's and the review page's refusals of a
field, with the codes clients read, before any service runs (judging.serializers)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.validation import InputRefused
from games.engine import DM2023, DUO, position_from_json
from games.selectors import game_state
from judging.models import JudgeCall, Ruling
from judging.serializers import (
    RulingUndoInputSerializer,
    TableCallInputSerializer,
    VoidCheckInputSerializer,
)
from judging.services.ruling_requests import AdjudicationRequest, VoidRequest
from tests.judging.conftest import ruling_input

pytestmark = pytest.mark.django_db


def _refused_code(kind, data):
    with pytest.raises(InputRefused) as refused:
        ruling_input(kind, data, ruleset=DM2023)
    name, codes = next(iter(refused.value.get_codes().items()))
    return name, codes[0]


@pytest.mark.parametrize(
    ("kind", "data", "field", "code"),
    [
        ("uphold", {"seq": 10}, "reason", "reason_required"),
        ("uphold", {"seq": 10, "reason": "   "}, "reason", "reason_required"),
        ("uphold", {"seq": 10, "reason": 5}, "reason", "reason_required"),
        ("uphold", {"seq": 10, "reason": "x" * 1001}, "reason", "reason_too_long"),
        ("uphold", {"reason": "x"}, "seq", "entry_invalid"),
        ("uphold", {"seq": "ti", "reason": "x"}, "seq", "entry_invalid"),
        ("uphold", {"seq": 0, "reason": "x"}, "seq", "entry_invalid"),
        ("uphold", {"seq": True, "reason": "x"}, "seq", "entry_invalid"),
        ("uphold", {"seq": 10, "reason": "x", "rule": "F66x"}, "rule", "rule_invalid"),
        ("void", {"seq": 10, "reason": "x", "also": "11 tolv"}, "also", "entry_invalid"),
        ("void", {"seq": 10, "reason": "x", "keep": [11, -1]}, "keep", "entry_invalid"),
        ("penalty", {"penalty": "P9", "seat": "Y", "reason": "x"}, "penalty", "penalty_invalid"),
        ("penalty", {"penalty": "P1", "seat": "X", "reason": "x"}, "seat", "seat_invalid"),
        ("penalty", {"penalty": "P1", "reason": "x"}, "seat", "seat_invalid"),
        (
            "penalty", {"penalty": "P2", "seat": "Y", "reason": "x", "pawn": "Y" * 61},
            "pawn", "pawn_invalid",
        ),
        (
            "penalty", {"penalty": "P3", "seat": "Y", "reason": "x", "move": ["Y3+5"]},
            "move", "move_invalid",
        ),
        ("warning", {"seat": "Y", "reason": "x", "call": "12x"}, "call", "call_invalid"),
        ("warning", {"seat": "Y", "reason": "x", "call": 0}, "call", "call_invalid"),
        ("result", {"winner": "XY", "reason": "x"}, "winner", "winner_invalid"),
        ("adjudication", {"reason": ""}, "winner", "winner_invalid"),
    ],
)  # fmt: skip
def test_a_ruling_field_is_refused_with_its_code(kind, data, field, code):
    assert _refused_code(kind, data) == (field, code)


def test_an_unknown_ruling_kind_is_refused():
    from core.errors import ApplicationError

    with pytest.raises(ApplicationError) as err:
        ruling_input("pardon", {"reason": "x"}, ruleset=DM2023)
    assert err.value.code == "ruling_kind_invalid" and err.value.message_da


def test_the_values_come_out_typed():
    void = ruling_input(
        "void",
        {"seq": "10", "reason": "  annulleret ", "also": "11, 12", "keep": ["13"],
         "rule": " f6 ", "call": "7", "keep_call_open": "on",
         "position": "Y=YH,YH,YH,Y4 R=RH,RH,RH,RH B=BH,BH,BH,BH G=GH,GH,GH,GH"},
        ruleset=DM2023,
    )  # fmt: skip
    assert isinstance(void, VoidRequest)
    assert void.seq == 10 and void.also == (11, 12) and void.keep == (13,)
    assert void.reason == "annulleret" and void.rule == "F6"
    assert void.call == 7 and void.keep_call_open is True
    assert void.position == position_from_json(
        {"Y": ["YH", "YH", "YH", "Y4"], "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4},
        DM2023,
    )
    adjudication = ruling_input("adjudication", {"winner": "YB"}, ruleset=DM2023)
    assert isinstance(adjudication, AdjudicationRequest)
    assert adjudication.reason == "" and adjudication.call is None


@pytest.mark.parametrize(
    ("ruleset", "position", "code"),
    [
        (DM2023, None, "position_invalid"),
        (DM2023, 7, "position_invalid"),
        (DM2023, "Y=YH R=RH", "N"),
        (DM2023, {"Y": ["YH"] * 3, "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4}, "S2"),
        (DUO, "Y=YH,YH,YH,YH R=RH,RH,RH,RH B=BH,BH,BH,BH G=GH,GH,GH,GH", "N"),
    ],
)
def test_a_position_is_read_in_the_games_ruleset_where_it_enters(ruleset, position, code):
    with pytest.raises(InputRefused) as refused:
        ruling_input("position", {"position": position, "reason": "x"}, ruleset=ruleset)
    assert refused.value.get_codes()["position"][0] == code


def test_the_other_requests_are_checked_alike():
    call = TableCallInputSerializer(data={"client_id": "call-0001", "seq": 0, "reason": " x "})
    assert call.is_valid() and call.validated_data == {
        "client_id": "call-0001", "seq": None, "reason": "x",
    }  # fmt: skip
    long_reason = TableCallInputSerializer(data={"client_id": "call-0001", "reason": "x" * 301})
    assert not long_reason.is_valid()
    assert long_reason.errors["reason"][0].code == "reason_too_long"
    bad_seq = TableCallInputSerializer(data={"client_id": "call-0001", "seq": "ti"})
    assert not bad_seq.is_valid() and bad_seq.errors["seq"][0].code == "entry_invalid"
    void = VoidCheckInputSerializer(data={"seq": 10, "also": [11, "x"]})
    assert not void.is_valid() and void.errors["also"][0].code == "entry_invalid"
    undo = RulingUndoInputSerializer(data={})
    assert not undo.is_valid() and undo.errors["reason"][0].code == "reason_required"


def test_the_rulings_api_answers_the_fields_code_in_both_languages(api, logged, judge):
    api.force_authenticate(judge)
    answer = api.post(
        f"/api/judging/games/{logged.pk}/rulings/",
        {"kind": "uphold", "seq": 10, "reason": " "},
        format="json",
    )
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "reason_required" and error["field"] == "reason"
    assert error["message_en"] == "Write the reason for the ruling."
    assert error["message_da"] != error["message_en"]
    assert not Ruling.objects.exists() and game_state(game=logged).seq == 10


def test_an_outsider_is_refused_before_the_fields_are_read(api, logged, other_judge):
    api.force_authenticate(other_judge)
    answer = api.post(f"/api/judging/games/{logged.pk}/rulings/", {"kind": "uphold"}, format="json")
    assert answer.status_code == 403


def test_the_void_check_api_refuses_a_bad_entry(api, logged, judge):
    api.force_authenticate(judge)
    answer = api.post(f"/api/judging/games/{logged.pk}/void-check/", {"seq": "x"}, format="json")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "entry_invalid"


def test_a_table_call_about_a_bad_entry_is_refused(api, logged, token):
    answer = api.post(
        reverse("api:table-judge", args=[token]),
        {"client_id": "call-0001", "seq": -3},
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "entry_invalid"
    assert not JudgeCall.objects.exists()


def test_the_review_page_shows_a_refused_field_and_rules_nothing(client, logged, judge):
    client.force_login(judge)
    url = reverse("judging:rule", args=[logged.round.tournament.slug, logged.pk])
    answer = client.post(url, {"action": "penalty", "penalty": "P1", "seat": "X", "reason": "x"})
    assert answer.status_code == 400
    assert "Vælg pladsen: gul, rød, blå eller grøn." in answer.content.decode()
    answer = client.post(url, {"action": "uphold", "seq": "10", "reason": ""})
    assert answer.status_code == 400
    assert not Ruling.objects.exists()


def test_the_review_page_voids_and_keeps_later_entries_with_a_position(client, logged, judge):
    """The void form's one ``decide`` per later entry and its position reach the ruling."""
    from judging.services.rulings import JudgeAtTable, void_preview

    affected = [a["entry"] for a in void_preview(table=JudgeAtTable(logged, judge), seq=5)]
    position = game_state(game=logged).position
    text = " ".join(f"{key}={','.join(pawns)}" for key, pawns in position.items())
    client.force_login(judge)
    url = reverse("judging:rule", args=[logged.round.tournament.slug, logged.pk])
    decide = [f"{affected[0]}:keep", *(f"{n}:void" for n in affected[1:])]
    answer = client.post(
        url,
        {"action": "void", "seq": "5", "decide": decide, "position": text, "reason": "Fejl",
         "at": "5"},
    )  # fmt: skip
    assert answer.status_code == 302 and answer["Location"].endswith("?at=5")
    ruling = Ruling.objects.get()
    assert ruling.data == {"void": sorted({5, *affected[1:]}), "keep": [affected[0]]}
    assert ruling.log_entries[-1]["text"] == f"! SET {text}"
    assert game_state(game=logged).position == position


def test_the_review_page_refuses_an_unstorable_field_on_the_page(client, logged, judge):
    client.force_login(judge)
    url = reverse("judging:rule", args=[logged.round.tournament.slug, logged.pk])
    answer = client.post(url, {"action": "uphold", "seq": "10", "reason": "a\x00b"})
    assert answer.status_code == 400
    assert not Ruling.objects.exists()


def test_the_rulings_serializer_reads_the_kind_first_then_the_kinds_fields():
    from core.errors import ApplicationError
    from judging.serializers import RulingInputSerializer

    unknown = RulingInputSerializer(data={"kind": "pardon", "seq": "ti"}, context={})
    with pytest.raises(ApplicationError) as err:
        unknown.is_valid(raise_exception=True)
    assert err.value.code == "ruling_kind_invalid"
    refused = RulingInputSerializer(data={"kind": "uphold", "seq": 10}, context={"ruleset": DM2023})
    with pytest.raises(InputRefused) as fields:
        refused.is_valid(raise_exception=True)
    assert fields.value.get_codes() == {"reason": ["reason_required"]}
    assert fields.value.texts["en"]["reason"] != fields.value.texts["da"]["reason"]
    valid = RulingInputSerializer(
        data={"kind": "adjudication", "winner": "RG"}, context={"ruleset": DM2023}
    )
    assert valid.is_valid()
    assert valid.ruling == AdjudicationRequest(
        reason="", call=None, keep_call_open=False, winner="RG"
    )
