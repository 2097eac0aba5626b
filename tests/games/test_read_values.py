"""The typed values of the games read side answer in their serializers' shape.

Each value's ``to_json()`` is what the API sends; the serializers describe it
for the schema. The strict answer tests check the fields; these check the
order too, so an answer stays byte for byte what it was.
"""

from __future__ import annotations

import pytest

from games.selectors import game_state
from games.serializers import GameStateSerializer
from games.services.move_log import move_submit
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def test_a_table_state_answers_in_the_serializers_field_order():
    game = GameFactory(first_dealer="Y")
    move_submit(game=game, text="8: in", client_id="read-values-01", expected_seq=0)
    state = game_state(game=game).with_rulings([])
    assert list(state.to_json()) == list(GameStateSerializer().fields)
    lean = game_state(game=game, with_entries=False, with_legal=False).to_json()
    assert "entries" not in lean and "rulings" not in lean
    assert lean["legal_entries"] is None and lean["legal_effects"] is None
    assert lean["result"] == {"winner": None, "source": None, "finished": False}
