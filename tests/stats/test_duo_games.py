"""DUO games are left out of the statistics (docs/ratings-and-statistics.md "DUO games")."""

from __future__ import annotations

import pytest

from games.engine import DUO, selfplay_game
from games.services.move_log import move_submit
from stats.selectors import stats_of_games
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def test_a_logged_duo_game_is_not_counted_beside_four_seat_games():
    duo = GameFactory(duo=True, first_dealer="Y")
    for seq, text in enumerate(selfplay_game(3, DUO, first_dealer="Y")["moves"][:6]):
        move_submit(game=duo, text=text, client_id=f"duo-stats-{seq:04d}", expected_seq=seq)
    four = GameFactory(first_dealer="Y")
    for seq, text in enumerate(selfplay_game(7, first_dealer="Y")["moves"][:6]):
        move_submit(game=four, text=text, client_id=f"dm-stats-{seq:04d}", expected_seq=seq)
    counted = stats_of_games([duo, four])
    assert [s.game_id for s in counted] == [four.pk]
