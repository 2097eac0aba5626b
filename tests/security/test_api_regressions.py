"""Regression tests for what the API fuzzing found (docs/security.md, "Findings")."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.engine import selfplay_game
from games.services import move_log
from games.services.tokens import game_token
from tests.factories import GameFactory, TournamentFactory, organiser_of
from tournament.models import Round

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("method", ["TRACE", "PUT", "DELETE", "OPTIONS"])
@pytest.mark.parametrize("logged_in", [False, True])
def test_unsupported_or_options_methods_on_the_tournament_list_are_not_a_server_error(
    method, logged_in
):
    # Found: OrganiserWrites looked up the tournament of a URL that names none (500).
    client = Client()
    if logged_in:
        client.force_login(organiser_of(TournamentFactory()))
    response = client.generic(method, "/api/tournaments/")
    assert response.status_code == (200 if method == "OPTIONS" else 405)
    if method != "OPTIONS":
        error = response.json()["error"]
        assert error["code"] == "method_not_allowed"
        assert error["message_da"] and error["message_en"]


def test_field_validation_errors_have_the_documented_bilingual_shape():
    # Found: DRF's {"field": [...]} answer did not match the documented ApiError.
    tournament = TournamentFactory()
    client = Client()
    client.force_login(organiser_of(tournament))
    game = GameFactory(round__tournament=tournament)
    response = client.post(
        f"/api/games/{game.pk}/result/", json.dumps({}), content_type="application/json"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert "winner" in error["fields"]
    assert "winner" in error["message_en"] and "winner" in error["message_da"]
    assert error["message"] == error["message_da"]  # Danish by default


def test_unreadable_json_has_the_bilingual_shape():
    tournament = TournamentFactory()
    client = Client()
    client.force_login(organiser_of(tournament))
    response = client.patch(
        f"/api/tournaments/{tournament.slug}/", "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_request"


def test_pairs_import_without_csv_text_is_documented_and_refused():
    tournament = TournamentFactory()
    client = Client()
    client.force_login(organiser_of(tournament))
    response = client.post(
        f"/api/tournaments/{tournament.slug}/pairs/import/", "{}", content_type="application/json"
    )
    assert response.status_code == 400
    assert "csv_text" in response.json()["error"]["fields"]
    schema = Client().get("/api/schema/?format=json").json()
    refused = schema["components"]["schemas"]["PairsImportRefused"]
    refs = {option["$ref"].rsplit("/", 1)[-1] for option in refused["oneOf"]}
    assert refs == {"ImportReport", "ApiError"}


def test_the_answer_to_a_take_back_matches_the_schema_with_null_legal_entries():
    # Found: write answers carry legal_entries = null, the schema said object.
    game = GameFactory(round__status=Round.Status.IN_PROGRESS, first_dealer="Y")
    token = game_token(game=game)
    opening = selfplay_game(3, first_dealer="Y")["moves"][0]
    move_log.move_submit(game=game, text=opening, client_id="client-1", expected_seq=0)
    response = Client().post(
        f"/api/table/{token}/take-back/",
        json.dumps({"seq": 1, "client_id": "client-1"}),
        content_type="application/json",
    )
    assert response.status_code == 200
    assert response.json()["legal_entries"] is None
    schema = Client().get("/api/schema/?format=json").json()
    legal = schema["components"]["schemas"]["GameState"]["properties"]["legal_entries"]
    assert legal.get("nullable") is True
