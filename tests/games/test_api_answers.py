"""Every answer of the games API is what the OpenAPI schema says it is.

The table's endpoints (state, an entry, a preview, a take-back, the record,
the clock), the public state and record of a game, the hall and the judges'
clock actions are called on a game with entries, and each JSON answer is
checked against the published schema with no undeclared field and no
missing one (tests/schema.py).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import Event, ReplayError, selfplay_game
from tests.schema import checked_answer, post_json, schema_errors
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


def _refused(data: Any, path: str, method: str, change: Callable[[Any], None]) -> list[str]:
    """The schema's complaints about ``data`` after ``change`` (on a copy)."""
    changed = copy.deepcopy(data)
    change(changed)
    return schema_errors(changed, path, method, 200)


def test_the_nested_parts_are_checked_field_by_field(world):
    """Each part of an answer with a shape of its own (the clock's extensions, the
    game's result, the log's first refusal, an entry's events, a preview's pawn
    changes) passes as the engine and the selectors make it, and fails with a
    field too many or one missing."""
    judge, table, token = world.client("judge"), world.client("anon"), world.tokens["token"]
    clock_path = "/api/games/{game_id}/clock/extend/"
    clock = checked_answer(
        post_json(
            judge,
            f"/api/games/{world.game.pk}/clock/extend/",
            {"minutes": 2, "reason": "Long ruling."},
        ),
        clock_path,
        "post",
        200,
    )
    assert clock["extensions"][0]["minutes"] == 2
    assert any(
        "judge" in e
        for e in _refused(clock, clock_path, "post", lambda c: c["extensions"][0].update(judge=1))
    )
    assert _refused(clock, clock_path, "post", lambda c: c["extensions"][0].pop("by"))

    state_path = "/api/table/{token}/state/"
    state = checked_answer(table.get(f"/api/table/{token}/state/"), state_path, "get", 200)
    assert state["entries"] and state["log_error"] is None
    # The log's first refusal and an entry's events as the engine writes them.
    refusal = ReplayError(2, "5: Y3+5", "F6", "Blocked.", "Spærret.").to_json()
    events = [Event("hit", "R", "Y8").to_json(), Event("lock", "Y", "YM1").to_json()]

    def engine_made(s: Any) -> None:
        s["log_error"] = refusal
        s["entries"][0]["events"] = events

    assert _refused(state, state_path, "get", engine_made) == []
    for change in (
        lambda s: s["result"].update(reason="typed"),
        lambda s: s["result"].pop("finished"),
        lambda s: s.update(log_error={**refusal, "seq": 3}),
        lambda s: s.update(log_error={k: v for k, v in refusal.items() if k != "rule"}),
        lambda s: s["entries"][0].update(events=[{**events[0], "seat": "R"}]),
        lambda s: s["entries"][0].update(events=[{"type": "hit", "colour": "R"}]),
    ):
        assert _refused(state, state_path, "get", change), change

    preview_path = "/api/table/{token}/preview/"
    text = selfplay_game(3, first_dealer=world.game.first_dealer)["moves"][1]
    preview = checked_answer(
        post_json(table, f"/api/table/{token}/preview/", {"text": text}), preview_path, "post", 200
    )
    assert preview["changes"]
    assert _refused(preview, preview_path, "post", lambda p: p["changes"][0].update(seat="Y"))
    assert _refused(preview, preview_path, "post", lambda p: p["changes"][0].pop("from"))
    assert _refused(preview, preview_path, "post", lambda p: p.update(position={"Y": "YH"}))


def test_the_refusals_carry_what_the_schema_says(world):
    """A stale entry's 409 carries the table's state, an illegal one's 422 its rule, a
    malformed one's 400 the field: each checked whole, with no undeclared field."""
    table, token = world.client("anon"), world.tokens["token"]
    path, url = "/api/table/{token}/entries/", f"/api/table/{token}/entries/"
    state = checked_answer(
        table.get(f"/api/table/{token}/state/"), "/api/table/{token}/state/", "get", 200
    )
    text = selfplay_game(3, first_dealer=world.game.first_dealer)["moves"][1]
    stale = checked_answer(
        post_json(
            table, url, {"text": text, "client_id": "refusal-1", "expected_seq": state["seq"] - 1}
        ),
        path,
        "post",
        409,
    )
    assert stale["error"]["code"] == "stale_sequence"
    assert stale["error"]["state"]["seq"] == state["seq"]
    illegal = checked_answer(
        post_json(
            table,
            url,
            {"text": "Y 1: YM1+9", "client_id": "refusal-2", "expected_seq": state["seq"]},
        ),
        path,
        "post",
        422,
    )
    assert illegal["error"]["rule"] == illegal["error"]["code"]
    malformed = checked_answer(
        post_json(table, url, {"text": text, "client_id": "x", "expected_seq": state["seq"]}),
        path,
        "post",
        400,
    )
    assert malformed["error"]["field"] == "client_id"
