"""Which language a visitor gets (config/middleware.py ``visitor_language``).

The visitor's own choice (the language switch's cookie) wins; otherwise the
event's language on the event's pages and API; otherwise Danish. The
browser's Accept-Language is not asked: a Danish event is Danish on an
English-language phone too.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, organiser_of

pytestmark = pytest.mark.django_db

ENGLISH_BROWSER = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


def _lang(response) -> str:  # type: ignore[no-untyped-def]
    html = response.content.decode()
    return html.split('<html lang="', 1)[1].split('"', 1)[0]


def test_an_english_language_browser_gets_a_danish_event_in_danish():
    event = TournamentFactory(language="da")
    response = Client().get(reverse("tournament:public_home", args=[event.slug]), **ENGLISH_BROWSER)
    assert _lang(response) == "da"
    assert response["Content-Language"] == "da"
    assert "Stilling" in response.content.decode()


def test_an_english_event_is_english_and_a_visitor_can_switch_to_danish():
    event = TournamentFactory(language="en")
    url = reverse("tournament:standings", args=[event.slug])
    visitor = Client()
    assert _lang(visitor.get(url, HTTP_ACCEPT_LANGUAGE="da")) == "en"
    switched = visitor.get(reverse("language_switch", args=["da"]), {"next": url})
    assert switched.status_code == 302
    assert _lang(visitor.get(url)) == "da"


def test_pages_outside_an_event_are_danish_whatever_the_browser_asks():
    assert _lang(Client().get(reverse("tournament:home"), **ENGLISH_BROWSER)) == "da"
    assert _lang(Client().get(reverse("login"), **ENGLISH_BROWSER)) == "da"


def test_the_event_api_and_organiser_pages_follow_the_event_language():
    event = TournamentFactory(language="en", alert_minutes=50, time_limit_minutes=60)
    client = Client()
    client.force_login(organiser_of(event))
    answer = client.patch(
        f"/api/tournaments/{event.slug}/",
        data='{"alert_minutes": 70}',
        content_type="application/json",
        HTTP_X_CSRFTOKEN="x",
    )
    error = answer.json()["error"]
    assert error["message"] == error["message_en"] != error["message_da"]
    page = client.get(reverse("tournament:organiser_dashboard", args=[event.slug]))
    assert _lang(page) == "en"


def test_answers_vary_on_the_cookie_that_carries_the_choice():
    event = TournamentFactory()
    response = Client().get(reverse("tournament:standings", args=[event.slug]))
    assert "Cookie" in response["Vary"]


def test_made_up_event_addresses_are_not_remembered():
    from tournament import page_version

    page_version.forget_stamps()
    visitor = Client()
    for n in range(20):
        assert visitor.get(f"/tournaments/no-such-event-{n}/").status_code == 404
    assert len(page_version._stamps) == 0
    event = TournamentFactory()
    assert visitor.get(f"/tournaments/{event.slug}/").status_code == 200
    assert list(page_version._stamps) == [event.slug]


def test_an_event_language_other_than_danish_or_english_is_refused():
    event = TournamentFactory()
    client = Client()
    client.force_login(organiser_of(event))
    answer = client.patch(
        f"/api/tournaments/{event.slug}/", '{"language": "fr"}', content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "language_unknown"
    event.refresh_from_db()
    assert event.language == "da"
