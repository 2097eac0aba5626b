"""Table tokens: entropy, hashed storage, rotation by the organiser, dead after the round."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest
from django.test import Client

from games.models import Game, MoveEntry
from games.services.tokens import game_token
from tests.factories import GameFactory, judge_of, organiser_of
from tournament.models import Round

pytestmark = pytest.mark.django_db


def _rotate_url(game: Game) -> str:
    return f"/organise/{game.round.tournament.slug}/games/{game.pk}/token/rotate/"


def test_token_carries_at_least_128_random_bits_and_only_its_hash_is_stored():
    games = [GameFactory() for _ in range(3)]
    tokens = {game_token(game=g) for g in games}
    assert len(tokens) == 3
    for game in games:
        game.refresh_from_db()
        token = game_token(game=game)
        assert len(base64.urlsafe_b64decode(token + "==")) * 8 >= 128
        assert len(bytes.fromhex(game.token_nonce)) * 8 >= 128
        assert game.token_hash == hashlib.sha256(token.encode()).hexdigest()
        assert token not in {game.token_hash, game.token_nonce}


def test_organiser_rotates_a_table_link_and_the_old_one_dies():
    game = GameFactory(round__status=Round.Status.IN_PROGRESS)
    old_token = game_token(game=game)
    game.refresh_from_db()
    old_code = game.short_code
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser_of(game.round.tournament))
    client.cookies["csrftoken"] = "a" * 32
    res = client.post(_rotate_url(game), HTTP_X_CSRFTOKEN="a" * 32)
    assert res.status_code == 302
    assert res["Location"].endswith(f"#table-{game.table_number}")
    game.refresh_from_db()
    new_token = game_token(game=game)
    assert new_token != old_token and game.short_code != old_code
    table = Client()
    assert table.get(f"/t/{old_token}/").status_code == 403
    refused = table.post(
        f"/api/table/{old_token}/entries/",
        json.dumps({"text": "11: in", "client_id": "c1", "expected_seq": 0}),
        content_type="application/json",
    )
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "table_token_invalid"
    assert refused.json()["error"]["message_da"] and refused.json()["error"]["message_en"]
    assert not MoveEntry.objects.filter(game=game).exists()
    assert table.get(f"/t/{new_token}/").status_code == 200
    assert table.get("/t/", {"code": old_code}).status_code == 200  # unknown code now
    assert table.get("/t/", {"code": game.short_code})["Location"] == f"/t/{new_token}/"


def test_the_round_page_offers_rotation_with_a_csrf_form():
    game = GameFactory(round__status=Round.Status.IN_PROGRESS)
    client = Client()
    client.force_login(organiser_of(game.round.tournament))
    page = client.get(f"/organise/{game.round.tournament.slug}/rounds/{game.round.number}/")
    body = page.content.decode()
    assert _rotate_url(game) in body
    assert "Nyt bordlink" in body  # Danish by default


@pytest.mark.parametrize("who", ["anonymous", "judge", "other_organiser"])
def test_only_the_events_organiser_may_rotate(who):
    game = GameFactory()
    token = game_token(game=game)
    client = Client()
    if who == "judge":
        client.force_login(judge_of(game.round.tournament))
    elif who == "other_organiser":
        client.force_login(organiser_of(GameFactory().round.tournament, username="org2"))
    res = client.post(_rotate_url(game))
    assert res.status_code in (302, 403)
    if res.status_code == 302:
        assert res["Location"].startswith("/login/")
    game.refresh_from_db()
    assert game_token(game=game) == token


def test_rotation_needs_post_and_csrf():
    game = GameFactory()
    token = game_token(game=game)
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser_of(game.round.tournament))
    assert client.get(_rotate_url(game)).status_code == 405
    assert client.post(_rotate_url(game)).status_code == 403
    game.refresh_from_db()
    assert game_token(game=game) == token


def test_a_closed_rounds_token_still_reads_but_every_table_write_is_refused():
    game = GameFactory(round__status=Round.Status.IN_PROGRESS)
    token = game_token(game=game)
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.CLOSED)
    client = Client()
    assert client.get(f"/api/table/{token}/state/").status_code == 200
    bodies = {
        "entries": {"text": "11: in", "client_id": "c1", "expected_seq": 0},
        "preview": {"text": "11: in"},
        "take-back": {"seq": 1, "client_id": "c1"},
        "confirm": {"pair_side": "YB", "client_id": "c1"},
        "judge": {"client_id": "c1", "reason": "help"},
    }
    for name, body in bodies.items():
        res = client.post(
            f"/api/table/{token}/{name}/", json.dumps(body), content_type="application/json"
        )
        assert res.status_code == 403, name
        assert res.json()["error"]["code"] == "permission_denied", name
    assert not MoveEntry.objects.filter(game=game).exists()
    assert not game.judge_calls.exists()
