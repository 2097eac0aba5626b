"""Judging a Partners DUO table: review, rulings, penalties, time-out, prediction.

DUO (docs/rulesets/duo.md) is played in singles: Y (pair_yb's player) against
R (pair_rg's); judge entries use the DUO players and codes.
"""

from __future__ import annotations

import pytest

from core.errors import ApplicationError
from games.engine import DUO, replay, selfplay_game
from games.selectors import game_state
from games.selectors.adjudication import adjudication_proposal
from games.services.clock import clock_start, clock_time_up
from judging.models import Ruling
from judging.selectors_review import game_review, rule_text
from judging.services.prediction import game_distances
from judging.services.rulings import (
    JudgeAtTable,
    adjudication_decide,
    ruling_make,
    ruling_penalty,
    ruling_result,
    ruling_void,
    ruling_warning,
)
from tests.factories import GameFactory, judge_of
from tests.judging.conftest import log_moves, ruling_input

pytestmark = pytest.mark.django_db

SET_TEXT = "YK=YKH,YKH,YKS RK=RKH,RKH,RKH YO=YOH,YOH,YO7 RO=ROH,ROH,RO3"


@pytest.fixture(scope="module")
def duo_record():
    return selfplay_game(3, DUO, first_dealer="Y")


@pytest.fixture
def duo_game(db, duo_record):
    game = GameFactory(duo=True, first_dealer="Y")
    clock_start(game=game)
    log_moves(game, duo_record["moves"][:12])
    game.refresh_from_db()
    return game


@pytest.fixture
def duo_judge(duo_game):
    return judge_of(duo_game.round.tournament, "duodommer")


def _texts(game):
    return [e.text for e in game_state(game=game).entries or ()]


def test_review_replays_a_duo_table_to_the_disputed_entry(duo_game, duo_record):
    review = game_review(game=duo_game, at=5)
    before = replay({**duo_record, "moves": duo_record["moves"][:4]})
    after = replay({**duo_record, "moves": duo_record["moves"][:5]})
    assert review["seats"] == ["Y", "R"]
    assert review["position"] == after.position.to_json()
    assert set(review["locked"]) == {"Y", "R"}
    entry = review["entry"]
    assert entry["text"] == duo_record["moves"][4]
    assert entry["seat_to_move"] == before.state.to_move
    assert entry["verdict"]["ok"] is True
    card = entry["card"]
    assert entry["rule"] == DUO.card_rule(card)
    assert entry["text"].split(" ", 1)[1] in entry["legal"]
    # DUO's rule ids name DUO rules: the text is DUO's (docs/rulesets/duo.md), in English.
    assert entry["rule_text"] == rule_text(entry["rule"], ruleset="duo")
    assert entry["rule_text"] != rule_text(entry["rule"], ruleset="dm2023")
    assert entry["rule_language"] == "en"


def test_void_of_a_duo_entry_and_a_position_correction(duo_game, duo_judge, duo_record):
    ruling_void(game=duo_game, actor=duo_judge, seq=12, reason="Forkert brik")
    eleven = replay({**duo_record, "moves": duo_record["moves"][:11]})
    state = game_state(game=duo_game)
    assert state.position == eleven.position.to_json()
    assert state.to_move == eleven.state.to_move
    # The position is read in the game's ruleset where it enters, as text or as an object.
    table = JudgeAtTable(duo_game, duo_judge)
    as_text = ruling_input("position", {"position": SET_TEXT, "reason": "Brikkerne"}, ruleset=DUO)
    ruling_make(table=table, request=as_text)
    assert _texts(duo_game)[-1] == f"! SET {SET_TEXT}"
    as_dict = {k: v.split(",") for k, v in (part.split("=") for part in SET_TEXT.split())}
    as_object = ruling_input("position", {"position": as_dict, "reason": "Igen"}, ruleset=DUO)
    ruling_make(table=table, request=as_object)
    assert _texts(duo_game)[-1] == f"! SET {SET_TEXT}"
    assert game_state(game=duo_game).position == as_dict


def test_penalties_at_a_duo_table_name_its_players(duo_game, duo_judge):
    """P1 and P2 with the DUO players; a four-seat seat is refused in both languages."""
    ruling = ruling_penalty(
        game=duo_game, actor=duo_judge, penalty="P1", seat="R", reason="Viste kort"
    )
    assert ruling.pair == duo_game.pair_rg
    assert game_state(game=duo_game).penalised == ["R"]
    # After entry 12 Y's hole pawn stands on RO10 (a track field named by its quarter).
    assert "RO10" in game_state(game=duo_game).position["YO"]
    ruling_penalty(
        game=duo_game, actor=duo_judge, penalty="P2", seat="Y", pawn="ro10", reason="Snak"
    )
    assert _texts(duo_game)[-1] == "! P2 Y RO10"
    assert game_state(game=duo_game).position["YO"] == ["YOH", "YOH", "YOH"]
    with pytest.raises(ApplicationError) as err:
        ruling_warning(game=duo_game, actor=duo_judge, seat="B", reason="Snak")
    assert err.value.code == "seat_invalid"
    assert "Y" in err.value.message_en and "gul" in err.value.message_da
    ruling_warning(game=duo_game, actor=duo_judge, seat="Y", rule="P5", reason="Snak")
    assert _texts(duo_game)[-1] == "! WARN Y P5"


def test_a_duo_result_ruling_awards_the_game_to_a_player(duo_game, duo_judge):
    ruling_result(game=duo_game, actor=duo_judge, winner="RG", reason="Y gik")
    assert _texts(duo_game)[-1] == "! RESULT R"
    state = game_state(game=duo_game)
    assert state.winner == "RG" and state.to_move is None


def test_duo_time_out_is_adjudicated_by_remaining_distance(duo_game, duo_judge):
    """DUO W2: the engine proposes the player with fewer steps left; the ruling names W2."""
    clock_time_up(game_id=duo_game.pk)
    proposal = adjudication_proposal(game=duo_game)
    distance = {t: v.distance for t, v in proposal.teams.items()}
    assert distance == game_state(game=duo_game).distance
    winner = proposal.winner or "YB"
    ruling = adjudication_decide(
        game=duo_game, actor=duo_judge, winner=winner, reason="" if proposal.winner else "lige"
    )
    assert ruling.rule == "W2" and ruling.kind == Ruling.Kind.ADJUDICATION
    assert _texts(duo_game)[-1] == f"! RESULT {winner[0]} TIME"
    duo_game.refresh_from_db()
    assert duo_game.winner == winner and duo_game.timed_out
    assert (duo_game.distance_yb, duo_game.distance_rg) == (distance["YB"], distance["RG"])


def test_prediction_reads_a_duo_tables_distance(duo_game):
    start, now = game_distances(game=duo_game)
    full = 6 * (4 * DUO.board_fields + 4)  # six pawns at home (W2)
    assert start == {"YB": full, "RG": full}
    assert now == game_state(game=duo_game).distance
    assert sum(now.values()) < sum(start.values())


def test_the_review_page_of_a_duo_table_opens_for_its_judge(client, duo_game, duo_judge):
    from django.urls import reverse

    client.force_login(duo_judge)
    url = reverse("judging:review", args=[duo_game.round.tournament.slug, duo_game.pk])
    page = client.get(url + "?at=5")
    assert page.status_code == 200
    assert page.context["entry"]["seq"] == 5
    assert page.context["position_text"].startswith("YK=")
