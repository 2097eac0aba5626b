"""Every answer of the games API is what the OpenAPI schema says it is.

The table's endpoints (state, an entry, a preview, a take-back, the record,
the clock), the public state and record of a game, the hall and the judges'
clock actions are called on a game with entries, and each JSON answer is
checked against the published schema with no undeclared field and no
missing one (tests/schema.py).
"""

from __future__ import annotations

import pytest

from games.engine import selfplay_game
from tests.schema import checked_answer, post_json
from tests.security.world import build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return build_world(tmp_path)


def test_the_table_device_gets_what_the_schema_says(world):
    table, token = world.client("anon"), world.tokens["token"]
    state = checked_answer(
        table.get(f"/api/table/{token}/state/?tail=20"), "/api/table/{token}/state/", "get", 200
    )
    moves = selfplay_game(3, first_dealer=world.game.first_dealer)["moves"]
    # The world logged the first of these moves and a judge's warning.
    text = moves[1]
    checked_answer(
        post_json(table, f"/api/table/{token}/preview/", {"text": text}),
        "/api/table/{token}/preview/",
        "post",
        200,
    )
    submitted = checked_answer(
        post_json(
            table,
            f"/api/table/{token}/entries/",
            {"text": text, "client_id": "answers-1", "expected_seq": state["seq"]},
        ),
        "/api/table/{token}/entries/",
        "post",
        201,
    )
    checked_answer(
        post_json(
            table,
            f"/api/table/{token}/take-back/",
            {"client_id": "answers-2", "seq": submitted["entry"]["seq"]},
        ),
        "/api/table/{token}/take-back/",
        "post",
        200,
    )
    checked_answer(
        table.get(f"/api/table/{token}/record/"), "/api/table/{token}/record/", "get", 200
    )
    checked_answer(table.get(f"/api/table/{token}/clock/"), "/api/table/{token}/clock/", "get", 200)


def test_the_public_and_the_judges_get_what_the_schema_says(world):
    anon, judge, game = world.client("anon"), world.client("judge"), world.game.pk
    checked_answer(anon.get(f"/api/games/{game}/state/"), "/api/games/{game_id}/state/", "get", 200)
    checked_answer(
        anon.get(f"/api/games/{game}/record/"), "/api/games/{game_id}/record/", "get", 200
    )
    checked_answer(
        anon.get(f"/api/tournaments/{world.main.slug}/hall/"),
        "/api/tournaments/{slug}/hall/",
        "get",
        200,
    )
    checked_answer(
        judge.get(f"/api/games/{game}/clock/"), "/api/games/{game_id}/clock/", "get", 200
    )
    for action, body in (
        ("pause", {"reason": "Judge call."}),
        ("resume", {}),
        ("extend", {"minutes": 2, "reason": "Long ruling."}),
    ):
        checked_answer(
            post_json(judge, f"/api/games/{game}/clock/{action}/", body),
            f"/api/games/{{game_id}}/clock/{action}/",
            "post",
            200,
        )
