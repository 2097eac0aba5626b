"""Each finding of the independent probe (docs/security.md, "Hostile input"), as it was sent.

Every request here answered 500 (or showed what it should not) before the
fix; ``test_hostile_input.py`` and ``test_visibility.py`` keep the whole
class out, these keep the very requests that were found.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.services.tokens import game_token
from tests.factories import GameFactory, RoundFactory
from tests.security.world import CSRF, World
from tournament.models import Round


@pytest.fixture
def world(security_world) -> World:
    return security_world


def _json(client: Client, url: str, body: object | bytes) -> int:
    data = body if isinstance(body, bytes) else json.dumps(body)
    response = client.post(url, data, content_type="application/json", HTTP_X_CSRFTOKEN=CSRF)
    return response.status_code


SUPERSCRIPT_TWO = "%C2%B2"  # "²": isdigit() is true, int() raises


def test_unicode_digits_in_query_parameters(world):
    slug, game = world.main.slug, world.game
    anon, judge = world.client("anon"), world.client("judge")
    token = world.token_for("token")
    assert (
        anon.get(f"/api/tournaments/{slug}/standings/?round={SUPERSCRIPT_TWO}").status_code == 400
    )
    assert (
        anon.get(f"/tournaments/{slug}/print/standings.pdf?round={SUPERSCRIPT_TWO}").status_code
        == 400
    )
    # Checked before the permission was: now the anonymous visitor is sent to log in.
    sheets = anon.get(f"/tournaments/{slug}/rounds/2/score-sheets.pdf?table={SUPERSCRIPT_TWO}")
    assert sheets.status_code == 302 and sheets["Location"].startswith("/login/")
    assert anon.get(f"/api/table/{token}/state/?tail={SUPERSCRIPT_TWO}").status_code == 400
    assert (
        judge.get(f"/api/judging/games/{game.pk}/review/?at={SUPERSCRIPT_TWO}").status_code == 400
    )
    assert (
        judge.get(f"/api/tournaments/{slug}/judge/incidents/?pair={SUPERSCRIPT_TWO}").status_code
        == 400
    )
    assert (
        judge.get(f"/tournaments/{slug}/judge/games/{game.pk}/?at={SUPERSCRIPT_TWO}").status_code
        == 400
    )
    assert (
        judge.get(f"/tournaments/{slug}/judge/incidents/?pair={SUPERSCRIPT_TWO}").status_code == 400
    )


def test_unicode_digits_in_bodies(world):
    game, judge = world.game, world.client("judge")
    token = world.token_for("token")
    table = Client()
    assert (
        _json(table, f"/api/table/{token}/judge/", {"client_id": "probe-call", "seq": "²"}) == 400
    )
    assert (
        _json(judge, f"/api/games/{game.pk}/clock/extend/", {"minutes": "²", "reason": "x"}) == 400
    )
    rulings = f"/api/judging/games/{game.pk}/rulings/"
    assert _json(judge, rulings, {"kind": "void", "seq": "²", "reason": "x"}) == 400
    assert _json(judge, rulings, {"kind": "uphold", "seq": 1, "reason": "x", "call": "²"}) == 400
    assert _json(judge, f"/api/judging/games/{game.pk}/void-check/", {"seq": "²"}) == 400


def test_deeply_nested_json_before_the_token_check(world):
    nested = b"[" * 50_000 + b"]" * 50_000
    forged = world.token_for("anon")
    for url in (f"/api/table/{forged}/entries/", f"/api/games/{world.game.pk}/clock/pause/"):
        response = Client().post(url, nested, content_type="application/json")
        assert response.status_code in (400, 403)
        if response.status_code == 400:
            assert response.json()["error"]["code"] == "json_too_deep"


def test_a_lone_surrogate_in_an_entry_and_a_nul_in_a_call_reason(world):
    token = world.token_for("token")
    entry = b'{"text": "Y 5: \\ud800", "client_id": "probe-entry-1", "expected_seq": 1}'
    response = Client().post(f"/api/table/{token}/entries/", entry, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "text_not_storable"
    call = {"client_id": "probe-call-2", "reason": "Hjælp\x00"}
    assert _json(Client(), f"/api/table/{token}/judge/", call) == 400


def test_the_games_of_a_draft_round_are_not_shown_to_anyone(world):
    draft = RoundFactory(tournament=world.main, number=3, status=Round.Status.DRAFT)
    game = GameFactory(round=draft, table_number=1, pair_yb=world.pairs[3], pair_rg=world.pairs[4])
    anon = Client()
    for url in (
        f"/api/games/{game.pk}/state/",
        f"/api/games/{game.pk}/record/",
        f"/api/games/{game.pk}/clock/",
        f"/tournaments/{world.main.slug}/rounds/3/tables/1/",
    ):
        assert anon.get(url).status_code == 404, url
    assert world.client("judge").get(f"/api/games/{game.pk}/state/").status_code == 200
    # The table's own link shows its game but cannot log a move yet.
    token = game_token(game=game)
    assert anon.get(f"/api/table/{token}/state/").status_code == 200
    move = {"text": "Y 11: in", "client_id": "probe-draft-1", "expected_seq": 0}
    assert _json(anon, f"/api/table/{token}/entries/", move) == 403
