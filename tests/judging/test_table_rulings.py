"""The table's state tells of the judge's rulings; the public live state does not."""

from __future__ import annotations

import pytest

from games.engine import selfplay_game
from games.selectors import game_state
from games.services.move_log import move_submit
from games.services.tokens import game_token
from judging.services.rulings import ruling_void
from tests.factories import GameFactory, judge_of

pytestmark = pytest.mark.django_db

MOVES = selfplay_game(7, first_dealer="Y")["moves"]


def test_the_table_state_names_the_ruling_the_reason_and_the_judge(client):
    game = GameFactory(first_dealer="Y")
    for i, text in enumerate(MOVES[:4]):
        move_submit(game=game, text=text, client_id=f"c{i}", expected_seq=i)
    judge = judge_of(game.round.tournament, username="hj")
    judge.first_name, judge.last_name = "Hanne", "Jensen"
    judge.save()
    ruling_void(game=game, actor=judge, seq=4, reason="Forkert kort.")
    state = client.get(f"/api/table/{game_token(game=game)}/state/?tail=20").json()
    [ruling] = state["rulings"]
    assert ruling["kind"] == "void"
    assert ruling["reason"] == "Forkert kort."
    assert ruling["judge"] == "Hanne Jensen"
    assert ruling["log"] == ["! VOID 4"]
    # The public live state (spectators) is game_state without them.
    assert "rulings" not in game_state(game=game).to_json()
