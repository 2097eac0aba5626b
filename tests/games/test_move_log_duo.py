"""A Partners DUO table on the server (docs/rulesets/duo.md, docs/api.md "DUO tables").

A DUO game is played in singles: pair_yb's player is Yellow (``Y``), pair_rg's
Red (``R``); the result codes stay ``YB`` (Y won) and ``RG`` (R won).
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.engine import DUO, replay, selfplay_game
from games.models import Game, MoveEntry
from games.selectors import game_record_export, game_state
from games.selectors.adjudication import adjudication_order, adjudication_proposal
from games.services.move_log import move_submit
from games.services.tokens import game_token
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def duo_record():
    """A complete legal DUO game, Yellow dealing first (Red opens, D2)."""
    return selfplay_game(3, DUO, first_dealer="Y")


@pytest.fixture
def duo_game():
    return GameFactory(duo=True, first_dealer="Y")


@pytest.fixture
def client():
    return Client(enforce_csrf_checks=True)


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def submit(client, token, text, seq, **extra):
    body = {"text": text, "client_id": f"duo-client-{seq:05d}", "expected_seq": seq, **extra}
    return post(client, f"/api/table/{token}/entries/", body)


def test_a_whole_duo_game_logged_through_the_api_ends_with_its_winner(client, duo_game, duo_record):
    token = game_token(game=duo_game)
    state = client.get(f"/api/table/{token}/state/").json()
    assert state["ruleset"] == "duo"
    assert state["seats"] == ["Y", "R"]
    assert state["teams"] == {"YB": ["Y"], "RG": ["R"]}
    assert state["to_move"] == "R"  # the player who did not deal opens (D2)
    assert state["hand_sizes"] == {"Y": 4, "R": 4}  # D1
    assert set(state["position"]) == {"YK", "RK", "YO", "RO"}
    assert state["legal_entries"]["8"][0] == "8: in RK"
    for seq, text in enumerate(duo_record["moves"]):
        answer = submit(client, token, text.split(" ", 1)[1], seq)
        assert answer.status_code == 201, answer.json()
    expected = replay(duo_record)
    final = client.get(f"/api/table/{token}/state/").json()
    assert final["winner"] == expected.winner in ("YB", "RG")
    assert final["position"] == expected.position.to_json()
    assert final["to_move"] is None
    side = final["teams"][final["winner"]][0]
    assert len(final["locked"][side]) == 6  # W1: all six pawns on goal circles
    assert final["distance"][final["winner"]] == 0
    for side in ("YB", "RG"):
        body = {"pair_side": side, "client_id": f"duo-confirm-{side}"}
        assert post(client, f"/api/table/{token}/confirm/", body).status_code == 200
    duo_game.refresh_from_db()
    assert duo_game.status == Game.Status.FINISHED
    assert duo_game.winner == final["winner"]
    locked = duo_game.locked_yb if final["winner"] == "YB" else duo_game.locked_rg
    assert locked == 6


def test_an_illegal_duo_move_is_refused_with_its_duo_rule_in_both_languages(client, duo_game):
    token = game_token(game=duo_game)
    answer = submit(client, token, "3: RK1+3", 0)  # no red pawn on the track yet
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["code"] == error["rule"] == "S3"
    assert "RK1" in error["message_en"] and "RK1" in error["message_da"]
    assert error["message_en"] != error["message_da"]
    wrong_turn = submit(client, token, "Y 8: in YK", 0)
    assert wrong_turn.json()["error"]["rule"] == "D2"
    assert "red" in wrong_turn.json()["error"]["message_en"]
    assert MoveEntry.objects.filter(game=duo_game).count() == 0


def test_a_four_seat_code_is_refused_at_a_duo_table(duo_game):
    from core.errors import ApplicationError

    with pytest.raises(ApplicationError) as err:
        move_submit(game=duo_game, text="11: in", client_id="duo-client-1", expected_seq=0)
    assert err.value.code == "N"


def test_preview_and_take_back_of_a_duo_entry(client, duo_game):
    token = game_token(game=duo_game)
    preview = post(client, f"/api/table/{token}/preview/", {"text": "8: in RO"})
    assert preview.status_code == 200
    assert preview.json()["changes"] == [{"colour": "RO", "from": ["ROH"], "to": ["ROS"]}]
    assert submit(client, token, "8: in RO", 0).status_code == 201
    assert client.get(f"/api/table/{token}/state/").json()["to_move"] == "Y"
    back = post(client, f"/api/table/{token}/take-back/", {"client_id": "duo-tb-1", "seq": 1})
    assert back.status_code == 200
    state = client.get(f"/api/table/{token}/state/").json()
    assert state["seq"] == 0
    assert state["to_move"] == "R"
    assert state["position"]["RO"] == ["ROH", "ROH", "ROH"]


def test_duo_record_export_and_import_round_trip(duo_game, duo_record):
    from games.services.move_log import game_record_import
    from tests.factories import judge_of

    judge = judge_of(duo_game.round.tournament)
    game_record_import(game=duo_game, actor=judge, record={**duo_record, "players": {}})
    exported = game_record_export(game=duo_game)
    assert exported["ruleset"] == "duo"
    assert set(exported["players"]) == {"Y", "R"}
    # Stored canonically: a discard shows its cards in deck order.
    assert len(exported["moves"]) == len(duo_record["moves"])
    assert replay(exported).position == replay(duo_record).position
    assert game_state(game=duo_game).winner == replay(duo_record).winner


def test_a_judge_entry_in_a_duo_log_penalises_the_next_deal(duo_game, duo_record):
    from games.services.move_log import judge_entries_append

    moves = duo_record["moves"][:5]
    for seq, text in enumerate(moves):
        move_submit(game=duo_game, text=text, client_id=f"duo-client-{seq:05d}", expected_seq=seq)
    judge_entries_append(game=duo_game, texts=["! P1 Y"])
    state = game_state(game=duo_game)
    assert state.penalised == ["Y"]  # P1: Y is dealt 3 cards at the next deal
    assert state.entries[-1].text == "! P1 Y"


def test_time_out_adjudication_of_a_duo_table_is_by_remaining_distance(duo_game, duo_record):
    """DUO W2: the fewer remaining steps win, whatever order the event set for W3."""
    tournament = duo_game.round.tournament
    tournament.adjudication = "locked_then_distance"
    tournament.save(update_fields=["adjudication"])
    assert adjudication_order(tournament) == "distance"
    moves = duo_record["moves"][:60]
    for seq, text in enumerate(moves):
        move_submit(game=duo_game, text=text, client_id=f"duo-client-{seq:05d}", expected_seq=seq)
    proposal = adjudication_proposal(game=duo_game)
    distance = {t: v.distance for t, v in proposal.teams.items()}
    assert distance == game_state(game=duo_game).distance
    if distance["YB"] != distance["RG"]:
        assert proposal.winner == min(distance, key=distance.__getitem__)
    assert proposal.reason_en.endswith("(W2).")


def test_demo_self_play_fills_duo_tables():
    """The demo tournament's self-play plays DUO games: a whole game for a table with a
    result (the log then decides it), the first entries for a table in play."""
    from games.services.move_log import demo_fill_logs
    from tournament.models import Round

    done = GameFactory(duo=True, first_dealer="R", winner="RG", result_source="typed")
    playing = GameFactory(
        duo=True, first_dealer="Y", round__tournament=done.round.tournament,
        round__status=Round.Status.IN_PROGRESS,
    )  # fmt: skip
    assert demo_fill_logs(tournament=done.round.tournament, seed=5) == 2
    finished = game_state(game=done)
    done.refresh_from_db()
    assert finished.winner == done.winner in ("YB", "RG")
    in_play = game_state(game=playing)
    assert in_play.seq >= 8 and in_play.winner is None
    assert in_play.log_error is None and in_play.seats == ["Y", "R"]


def test_the_table_page_of_a_duo_game_names_its_two_players(client, duo_game):
    from django.urls import reverse

    page = client.get(reverse("games:table", kwargs={"token": game_token(game=duo_game)}))
    assert page.status_code == 200
    assert [seat for seat, _name in page.context["seat_names"]] == ["Y", "R"]
    assert page.context["config"]["rules"]["offline_mirror"] is False
    assert page.context["config"]["rules"]["cards"] == [*map(str, range(1, 11)), "12"]


def test_the_hall_measures_a_duo_tables_progress_from_its_own_start(duo_game):
    """DUO W2: six pawns at home are 6 × 60 steps, so an unplayed table is at 0 %."""
    from games.selectors import hall_tables

    move_submit(game=duo_game, text="8: in RK", client_id="duo-hall-1", expected_seq=0)
    (table,) = hall_tables(round_=duo_game.round)
    assert table.progress["YB"] == 0
    assert table.distance["YB"] == 6 * (4 * DUO.board_fields + 4)
    assert table.locked == {"YB": 0, "RG": 0}
