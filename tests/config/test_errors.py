"""Error answers in the site's style, in Danish and English; JSON under /api/."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from config.errors import server_error
from tests.factories import TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_the_sites_404_in_danish_with_english_below():
    response = Client().get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert '<h1 lang="da">Siden findes ikke</h1>' in html
    assert "Page not found." in html and 'class="site-header"' in html


def test_a_missing_page_inside_an_event_leads_back_to_the_event():
    event = TournamentFactory(name="Odense Open")
    response = Client().get(f"/tournaments/{event.slug}/rounds/99/")
    assert response.status_code == 404
    html = response.content.decode()
    assert reverse("tournament:public_home", args=[event.slug]) in html
    assert "Odense Open" in html


def test_an_english_visitor_reads_english_first():
    client = Client()
    client.cookies["django_language"] = "en"
    html = client.get("/no-such-page/").content.decode()
    assert html.index("Page not found") < html.index("Siden findes ikke")


def test_an_unknown_api_address_answers_bilingual_json():
    response = Client().get("/api/no-such-endpoint/")
    assert response.status_code == 404
    error = response.json()["error"]
    assert error["code"] == "not_found"
    assert error["message_en"].startswith("Not found")
    assert error["message_da"].startswith("Ikke fundet")


def test_a_stale_form_is_explained_and_changes_nothing():
    UserFactory(username="desk")
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "desk", "password": "pw-for-tests"})
    html = response.content.decode()
    assert response.status_code == 403
    assert "Formularen var forældet" in html and "The form was out of date" in html
    assert "_auth_user_id" not in client.session


def test_the_500_page_needs_neither_database_nor_session():
    request = RequestFactory().get("/organise/")
    response = server_error(request)
    html = response.content.decode()
    assert response.status_code == 500
    assert "Der gik noget galt" in html and "Something went wrong" in html


def test_a_server_error_under_api_is_json():
    response = server_error(RequestFactory().get("/api/rounds/1/"))
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"


def test_an_error_text_is_given_in_both_languages_from_the_catalogue():
    from django.utils.translation import gettext_lazy as _

    from core.errors import ApplicationError, PermissionDenied

    denied = PermissionDenied()
    assert (denied.message_en, denied.message_da) == ("You may not do this.", "Det må du ikke.")
    # A placeholder is filled in each language; a lazy value is rendered in each too.
    error = ApplicationError(
        "x", _("You may not do this."), params={"unused": _("You may not do this.")}
    )
    assert error.message_da == "Det må du ikke."
    assert error.to_json()["message_en"] == "You may not do this."
