"""Result confirmation at the end of a logged game, and demo logs."""

from __future__ import annotations

import pytest

from core.errors import ApplicationError
from games.engine import remaining_distance, replay
from games.models import Game, MoveEntry, ResultConfirmation
from games.selectors import game_state
from games.services.move_log import (
    demo_fill_logs,
    game_result_confirm,
    move_submit,
    move_take_back,
)
from tests.factories import GameFactory, RoundFactory
from tournament.models import Round

pytestmark = pytest.mark.django_db


def play_all(game, moves):
    for i, text in enumerate(moves):
        move_submit(game=game, text=text, client_id=f"client-{i:06d}", expected_seq=i)


def test_confirm_before_the_end_is_refused(game):
    move_submit(game=game, text="11: in", client_id="client-000000", expected_seq=0)
    with pytest.raises(ApplicationError) as err:
        game_result_confirm(game=game, pair_side="YB", client_id="confirm-yb-1")
    assert err.value.code == "no_winner_yet"
    assert not ResultConfirmation.objects.exists()


def test_both_pairs_confirm_and_the_result_flows_into_the_game(game, record):
    play_all(game, record["moves"])
    expected = replay(record)
    state = game_result_confirm(game=game, pair_side="YB", client_id="confirm-yb-1")
    assert state.confirmations == {"YB": True, "RG": False}
    game.refresh_from_db()
    assert game.winner == ""  # one confirmation is not enough
    state = game_result_confirm(game=game, pair_side="RG", client_id="confirm-rg-1")
    game.refresh_from_db()
    assert game.winner == expected.winner
    assert game.result_source == Game.ResultSource.LOG
    assert game.status == Game.Status.FINISHED
    teams = remaining_distance(expected.position)["teams"]
    assert (game.distance_yb, game.distance_rg) == (teams["YB"], teams["RG"])
    winner_locked = game.locked_yb if expected.winner == "YB" else game.locked_rg
    assert winner_locked == 8
    assert state.result.finished is True
    # The game is over: no more entries, no take-back.
    with pytest.raises(ApplicationError) as err:
        move_take_back(game=game, client_id="device-tb-1", seq=len(record["moves"]))
    assert err.value.code == "game_finished"


def test_log_result_replaces_a_typed_result(game, record):
    loser = "RG" if replay(record).winner == "YB" else "YB"
    Game.objects.filter(pk=game.pk).update(winner=loser, result_source="typed")
    play_all(game, record["moves"])
    game_result_confirm(game=game, pair_side="YB", client_id="confirm-yb-1")
    game_result_confirm(game=game, pair_side="RG", client_id="confirm-rg-1")
    game.refresh_from_db()
    assert game.winner != loser
    assert game.result_source == "log"


def test_take_back_withdraws_confirmations(game, record):
    play_all(game, record["moves"])
    game_result_confirm(game=game, pair_side="YB", client_id="confirm-yb-1")
    move_take_back(game=game, client_id="device-tb-1", seq=len(record["moves"]))
    assert not ResultConfirmation.objects.filter(game=game).exists()
    assert game_state(game=game).winner is None


def test_confirm_twice_is_harmless(game, record):
    play_all(game, record["moves"])
    game_result_confirm(game=game, pair_side="YB", client_id="confirm-yb-1")
    game_result_confirm(game=game, pair_side="YB", client_id="confirm-yb-2")
    assert ResultConfirmation.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert not game.winner


def test_demo_fill_logs(db):
    played = RoundFactory(number=1, status=Round.Status.CLOSED)
    tournament = played.tournament
    live = RoundFactory(tournament=tournament, number=2, status=Round.Status.IN_PROGRESS)
    finished = GameFactory(round=played, first_dealer="B", winner="YB", result_source="typed")
    running = GameFactory(round=live, first_dealer="G")
    assert demo_fill_logs(tournament=tournament, seed=3) == 2
    finished.refresh_from_db()
    done = game_state(game=finished)
    assert done.winner == finished.winner  # the log and the result agree
    assert done.seq == MoveEntry.objects.filter(game=finished).count()
    partial = game_state(game=running)
    assert partial.seq >= 8 and partial.winner is None and partial.log_error is None
    # Running it again changes nothing.
    assert demo_fill_logs(tournament=tournament, seed=3) == 0
