"""Every answer of the judging API is what the OpenAPI schema says it is.

Each endpoint is called as the event's judge (the table endpoints with the
table's token) on a game with entries, a call, an alert and rulings, and its
JSON is checked against the published schema with no undeclared field
(tests/schema.py). A placeholder schema (``{"ok": bool}``) fails here.
"""

from __future__ import annotations

import copy
import json

import pytest

from games.engine import Event
from tests.schema import answer_schema, checked_answer, openapi_schema, post_json, schema_errors
from tests.security.world import build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return build_world(tmp_path)


def test_the_judges_reads_answer_as_documented(world):
    judge = world.client("judge")
    slug, game = world.main.slug, world.game.pk
    reads = [
        ("/api/tournaments/{slug}/judge/dashboard/", f"/api/tournaments/{slug}/judge/dashboard/"),
        ("/api/tournaments/{slug}/judge/calls/", f"/api/tournaments/{slug}/judge/calls/"),
        ("/api/judging/games/{game_id}/review/", f"/api/judging/games/{game}/review/"),
        ("/api/judging/games/{game_id}/review/", f"/api/judging/games/{game}/review/?at=0"),
        ("/api/judging/games/{game_id}/review/", f"/api/judging/games/{game}/review/?at=1"),
        ("/api/judging/games/{game_id}/rulings/", f"/api/judging/games/{game}/rulings/"),
        ("/api/judging/games/{game_id}/adjudication/", f"/api/judging/games/{game}/adjudication/"),
        ("/api/tournaments/{slug}/judge/rulings/", f"/api/tournaments/{slug}/judge/rulings/"),
        ("/api/tournaments/{slug}/judge/incidents/", f"/api/tournaments/{slug}/judge/incidents/"),
    ]
    for path, url in reads:
        checked_answer(judge.get(url), path, "get", 200)
    table = world.client("anon")
    status = checked_answer(
        table.get(f"/api/table/{world.tokens['token']}/judge/"),
        "/api/table/{token}/judge/",
        "get",
        200,
    )
    assert status["call"]["id"] == world.call.pk and status["rulings"]


def test_the_judges_writes_answer_as_documented(world):
    judge = world.client("judge")
    game = world.game.pk
    alert = checked_answer(
        post_json(judge, f"/api/alerts/{world.alert.pk}/acknowledge/", {}),
        "/api/alerts/{alert_id}/acknowledge/",
        "post",
        200,
    )
    assert alert["acknowledged_by"] == "sec-judge"
    checked_answer(
        post_json(judge, f"/api/judging/calls/{world.call.pk}/take/", {}),
        "/api/judging/calls/{call_id}/take/",
        "post",
        200,
    )
    affected = checked_answer(
        post_json(judge, f"/api/judging/games/{game}/void-check/", {"seq": 1}),
        "/api/judging/games/{game_id}/void-check/",
        "post",
        200,
    )
    assert affected == {"affected": []}
    made = checked_answer(
        post_json(
            judge,
            f"/api/judging/games/{game}/rulings/",
            {"kind": "warning", "seat": "Y", "rule": "P2", "reason": "Slow play.",
             "call": world.call.pk},
        ),
        "/api/judging/games/{game_id}/rulings/",
        "post",
        201,
    )  # fmt: skip
    assert made["call_closing"]["closed_now"] is True
    checked_answer(
        post_json(judge, f"/api/judging/rulings/{made['id']}/undo/", {"reason": "Wrong seat."}),
        "/api/judging/rulings/{ruling_id}/undo/",
        "post",
        201,
    )
    table = world.client("anon")
    called = checked_answer(
        post_json(table, f"/api/table/{world.tokens['token']}/judge/", {"client_id": "sec-call-2"}),
        "/api/table/{token}/judge/",
        "post",
        201,
    )
    assert called["call"]["status"] == "open"
    closed = checked_answer(
        post_json(judge, f"/api/judging/calls/{called['call']['id']}/close/", {}),
        "/api/judging/calls/{call_id}/close/",
        "post",
        200,
    )
    assert closed["closing"]["status"] == "closed"


def test_no_judging_answer_is_a_placeholder():
    doc = openapi_schema()
    judging = {
        (path, method): operation
        for path, item in doc["paths"].items()
        for method, operation in item.items()
        if "/judg" in path or path.endswith("/judge/")
    }
    assert len(judging) >= 14
    for (path, method), operation in judging.items():
        for status, response in operation["responses"].items():
            if not status.startswith("2") or "content" not in response:
                continue
            schema = answer_schema(path, method, int(status))
            target = schema.get("$ref", "").rsplit("/", 1)[-1]
            body = schema["components"]["schemas"][target] if target else schema
            assert len(body.get("properties", {})) >= 1, (path, method, status)
            assert set(body["properties"]) != {"ok"}, (path, method, status)


def test_the_check_refuses_an_undeclared_field_and_a_missing_one(world):
    data = json.loads(
        world.client("judge").get(f"/api/judging/games/{world.game.pk}/rulings/").content
    )
    path = "/api/judging/games/{game_id}/rulings/"
    assert schema_errors(data, path, "get", 200) == []
    extra = {"rulings": [{**data["rulings"][0], "secret": 1}]}
    assert any("secret" in e for e in schema_errors(extra, path, "get", 200))
    missing = {"rulings": [{k: v for k, v in data["rulings"][0].items() if k != "judge"}]}
    assert any("judge" in e for e in schema_errors(missing, path, "get", 200))


def test_an_entrys_events_and_the_dashboards_clock_are_checked_field_by_field(world):
    judge = world.client("judge")
    review_path = "/api/judging/games/{game_id}/review/"
    review = checked_answer(
        judge.get(f"/api/judging/games/{world.game.pk}/review/?at=1"), review_path, "get", 200
    )
    hit = Event("hit", "R", "Y8").to_json()
    for key in ("entries", "entry"):
        good = copy.deepcopy(review)
        entry = good[key][0] if key == "entries" else good[key]
        entry["events"] = [hit]
        assert schema_errors(good, review_path, "get", 200) == []
        entry["events"] = [{**hit, "seat": "R"}]
        assert any("seat" in e for e in schema_errors(good, review_path, "get", 200))

    slug = world.main.slug
    post_json(
        judge, f"/api/games/{world.game.pk}/clock/extend/", {"minutes": 2, "reason": "Ruling."}
    )
    dashboard_path = "/api/tournaments/{slug}/judge/dashboard/"
    dashboard = checked_answer(
        judge.get(f"/api/tournaments/{slug}/judge/dashboard/"), dashboard_path, "get", 200
    )
    (table,) = [t for t in dashboard["tables"] if t["game_id"] == world.game.pk]
    assert table["clock"]["extensions"][0]["minutes"] == 2
    table["clock"]["extensions"][0]["judge"] = "x"
    assert any("judge" in e for e in schema_errors(dashboard, dashboard_path, "get", 200))
