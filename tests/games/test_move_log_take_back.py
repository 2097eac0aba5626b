"""Rulings stay (RULES.md J2): a table's take-back never withdraws a judge entry."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from core.errors import ApplicationError
from games.models import MoveEntry
from games.selectors import game_state
from games.services.move_log import move_submit, move_take_back
from judging.services.rulings import ruling_void, ruling_warning
from tests.factories import judge_of

pytestmark = pytest.mark.django_db


def play(game, moves, start=0):
    for i, text in enumerate(moves, start=start):
        move_submit(game=game, text=text, client_id=f"client-{i:06d}", expected_seq=i)


def active(game):
    return list(
        MoveEntry.objects.filter(game=game, withdrawn_at__isnull=True)
        .order_by("seq")
        .values_list("text", flat=True)
    )


@pytest.fixture
def voided(game, record):
    """Six entries and a judge's ``! VOID 6`` as entry 7."""
    play(game, record["moves"][:6])
    ruling_void(game=game, actor=judge_of(game.round.tournament), seq=6, reason="Out of turn.")
    return game


def test_a_judge_entry_is_never_taken_back(voided, record):
    before = game_state(game=voided)
    with pytest.raises(ApplicationError) as err:
        move_take_back(game=voided, client_id="device-tb-01", seq=7)
    assert err.value.code == "J2" and err.value.status_code == 409
    assert err.value.extra == {"rule": "J2", "seq": 7}
    assert "judge" in err.value.message_en and "dommer" in err.value.message_da
    # The void stands: the voided entry does not come back.
    after = game_state(game=voided)
    assert after.seq == 7 and after.position == before.position
    assert active(voided)[-1] == "! VOID 6"
    assert not MoveEntry.objects.filter(game=voided, withdrawn_at__isnull=False).exists()


def test_nor_an_entry_before_a_judge_entry(voided):
    # A device that has not seen the ruling yet asks for its own last entry.
    with pytest.raises(ApplicationError) as err:
        move_take_back(game=voided, client_id="device-tb-01", seq=5)
    assert err.value.code == "J2" and err.value.extra["seq"] == 7
    assert len(active(voided)) == 7


def test_an_older_entry_without_a_ruling_after_it_is_too_late(game, record):
    play(game, record["moves"][:3])
    with pytest.raises(ApplicationError) as err:
        move_take_back(game=game, client_id="device-tb-01", seq=2)
    assert err.value.code == "take_back_too_late"


def test_repeated_take_backs_stop_at_the_judge_entry(voided, record):
    # The table plays on after the ruling; it may take back its own entries
    # one by one, but never past the ruling.
    play(voided, [record["moves"][5]], start=7)
    move_take_back(game=voided, client_id="device-tb-01", seq=8)
    with pytest.raises(ApplicationError) as err:
        move_take_back(game=voided, client_id="device-tb-01", seq=7)
    assert err.value.code == "J2"
    assert active(voided)[-1] == "! VOID 6"


def test_an_imported_entry_is_not_the_tables_to_take_back(game, record):
    play(game, record["moves"][:2])
    MoveEntry.objects.filter(game=game, seq=2).update(source=MoveEntry.Source.IMPORT)
    with pytest.raises(ApplicationError) as err:
        move_take_back(game=game, client_id="device-tb-01", seq=2)
    assert err.value.code == "J2" and "imported" in err.value.message_en
    assert len(active(game)) == 2


def test_the_tables_own_last_entry_is_still_taken_back(voided, record):
    play(voided, [record["moves"][5]], start=7)
    state = move_take_back(game=voided, client_id="device-tb-01", seq=8)
    assert state.seq == 7
    assert MoveEntry.objects.get(game=voided, seq=8).withdrawn_by == "device-tb-01"


def test_the_api_refuses_a_take_back_across_a_judge_entry(voided, token):
    client = Client(enforce_csrf_checks=True)
    res = client.post(
        f"/api/table/{token}/take-back/",
        json.dumps({"seq": 7, "client_id": "device-tb-01", "lang": "en"}),
        content_type="application/json",
    )
    assert res.status_code == 409
    error = res.json()["error"]
    assert error["code"] == "J2" and error["rule"] == "J2" and error["seq"] == 7
    assert error["message"] == error["message_en"] and error["message_da"]
    assert active(voided)[-1] == "! VOID 6"


def test_a_warning_is_a_ruling_too(game, record):
    play(game, record["moves"][:3])
    ruling_warning(game=game, actor=judge_of(game.round.tournament), seat="B", reason="P5.")
    with pytest.raises(ApplicationError) as err:
        move_take_back(game=game, client_id="device-tb-01", seq=4)
    assert err.value.code == "J2"
