"""The print page warns loudly when the score sheets would carry a loopback address."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import GameFactory, RoundFactory, TournamentFactory, organiser_of

pytestmark = pytest.mark.django_db


def _print_page(settings, site_url: str) -> str:  # type: ignore[no-untyped-def]
    settings.SITE_URL = site_url
    event = TournamentFactory()
    round_ = RoundFactory(tournament=event, number=1, status="published")
    GameFactory(round=round_, table_number=1)
    client = Client()
    client.force_login(organiser_of(event))
    response = client.get(reverse("printing:round_print", args=[event.slug, 1]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_loopback_site_url_is_a_loud_warning_on_the_print_page(settings):
    html = _print_page(settings, "http://127.0.0.1:8000")
    assert 'id="site-url-warning"' in html and 'role="alert"' in html
    assert "Telefoner kan ikke åbne disse scoreark" in html
    assert "make venue" in html


def test_a_venue_address_is_shown_without_warning(settings):
    html = _print_page(settings, "http://192.168.1.23:8000")
    assert 'id="site-url-warning"' not in html
    assert "http://192.168.1.23:8000" in html
