"""Errors the REST framework raises by itself carry true English and Danish messages."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework import exceptions

from core.api_errors import exception_handler
from tests.factories import TournamentFactory, UserFactory, organiser_of

pytestmark = pytest.mark.django_db


def _error(response) -> dict:  # type: ignore[no-untyped-def]
    error = response.json()["error"]
    assert error["message_en"] != error["message_da"], error
    return error


def test_not_found_is_english_in_english_and_danish_in_danish():
    response = Client().get("/api/rounds/999999/")
    assert response.status_code == 404
    error = _error(response)
    assert error["message_en"] == "Not found: nothing exists at this address."
    assert error["message_da"] == "Ikke fundet: der findes intet på denne adresse."
    assert error["message"] == error["message_da"]


def test_a_method_the_address_does_not_take():
    event = TournamentFactory()
    response = Client().delete(f"/api/tournaments/{event.slug}/standings/")
    assert response.status_code == 405
    error = _error(response)
    assert error["message_en"] == "This address does not accept DELETE."
    assert error["message_da"] == "Denne adresse tager ikke imod DELETE."


def test_a_body_that_is_not_json():
    event = TournamentFactory()
    client = Client()
    client.force_login(organiser_of(event))
    response = client.patch(
        f"/api/tournaments/{event.slug}/", "venue=Aarhus", content_type="text/plain"
    )
    assert response.status_code == 415
    assert "JSON" in _error(response)["message_da"]


def test_a_write_without_the_csrf_token_says_what_to_do():
    event = TournamentFactory()
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser_of(event))
    response = client.patch(
        f"/api/tournaments/{event.slug}/", '{"venue": "Aarhus"}', content_type="application/json"
    )
    assert response.status_code == 403
    error = _error(response)
    assert error["code"] == "csrf_failed"
    assert "genindlæs siden" in error["message_da"]


def test_a_write_without_login():
    event = TournamentFactory()
    response = Client().patch(
        f"/api/tournaments/{event.slug}/", '{"venue": "Aarhus"}', content_type="application/json"
    )
    assert response.status_code == 403
    _error(response)


def test_a_write_by_a_stranger():
    event = TournamentFactory()
    client = Client()
    client.force_login(UserFactory())
    response = client.post(f"/api/tournaments/{event.slug}/rounds/pair/", {})
    assert response.status_code == 403
    _error(response)


def test_throttling_says_when_to_try_again_in_both_languages():
    response = exception_handler(exceptions.Throttled(wait=12), {"request": None})
    error = response.data["error"]
    assert response.status_code == 429
    assert error["message_en"] == "Too many requests: try again in 12 seconds."
    assert error["message_da"] == "For mange forespørgsler: prøv igen om 12 sekunder."
