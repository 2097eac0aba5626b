"""Request size limits: large CSV imports and game records get 413 and change nothing."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation

from games.models import MoveEntry
from games.services.tokens import game_token
from tests.factories import GameFactory, TournamentFactory, organiser_of
from tournament.models import Pair

pytestmark = pytest.mark.django_db

LIMIT = settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def _csv(size: int) -> str:
    rows = ["player_1,player_2"]
    total = len(rows[0])
    while total < size:
        rows.append(f"Spiller {len(rows)}a,Spiller {len(rows)}b")
        total += len(rows[-1]) + 1
    return "\n".join(rows)


@pytest.fixture
def organiser_client():
    tournament = TournamentFactory()
    client = Client()
    client.force_login(organiser_of(tournament))
    return client, tournament


def test_the_413_speaks_the_visitors_language_not_the_threads_last(organiser_client):
    """The size check runs before the language middleware: a thread whose previous
    request was in English must still refuse a Danish event's upload in Danish."""
    client, tournament = organiser_client
    body = json.dumps({"csv_text": _csv(LIMIT + 1024)})
    url = f"/api/tournaments/{tournament.slug}/pairs/import/"
    translation.activate("en")  # what an English page left in this thread
    try:
        res = client.post(url, body, content_type="application/json")
    finally:
        translation.deactivate()
    assert res.status_code == 413
    assert res.json()["error"]["message"].startswith("Det sendte er for stort")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    res = client.post(url, body, content_type="application/json")
    assert res.json()["error"]["message"].startswith("The upload is too large")


def test_api_pairs_import_over_the_limit_is_413_bilingual(organiser_client):
    client, tournament = organiser_client
    res = client.post(
        f"/api/tournaments/{tournament.slug}/pairs/import/",
        json.dumps({"csv_text": _csv(LIMIT + 1024)}),
        content_type="application/json",
    )
    assert res.status_code == 413
    error = res.json()["error"]
    assert error["code"] == "request_too_large"
    assert "for stort" in error["message_da"] and "too large" in error["message_en"]
    assert error["message"] == error["message_da"]
    assert not Pair.objects.filter(tournament=tournament).exists()


def test_api_body_under_the_limit_reaches_the_view(organiser_client):
    client, tournament = organiser_client
    res = client.post(
        f"/api/tournaments/{tournament.slug}/pairs/import/",
        json.dumps({"csv_text": _csv(3_000)}),
        content_type="application/json",
    )
    assert res.status_code == 201
    assert Pair.objects.filter(tournament=tournament).count() > 50


def test_organiser_csv_file_over_the_limit_gets_a_page_not_a_500(organiser_client):
    client, tournament = organiser_client
    upload = SimpleUploadedFile("pairs.csv", _csv(LIMIT + 1024).encode(), "text/csv")
    res = client.post(
        f"/organise/{tournament.slug}/pairs/import/", {"csv_file": upload, "csv_text": ""}
    )
    assert res.status_code == 413
    body = res.content.decode()
    assert "for stort" in body and "too large" in body
    assert "<script>" not in body
    assert not Pair.objects.filter(tournament=tournament).exists()


def test_game_record_import_over_the_limit_is_refused():
    game = GameFactory()
    client = Client()
    client.force_login(organiser_of(game.round.tournament))
    record = {
        "ruleset": "dm2023",
        "first_dealer": "Y",
        "players": {},
        "moves": ["Y 11: in"] * (LIMIT // 8),
    }
    res = client.post(
        f"/api/games/{game.pk}/record/", json.dumps(record), content_type="application/json"
    )
    assert res.status_code == 413
    assert res.json()["error"]["code"] == "request_too_large"
    assert not MoveEntry.objects.filter(game=game).exists()


def test_table_entry_with_a_huge_body_is_refused():
    game = GameFactory()
    token = game_token(game=game)
    res = Client().post(
        f"/api/table/{token}/entries/",
        json.dumps({"text": "x" * (LIMIT + 1), "client_id": "c1", "expected_seq": 0}),
        content_type="application/json",
    )
    assert res.status_code == 413
    assert not MoveEntry.objects.filter(game=game).exists()
