"""A page view's refused input is a bilingual page with the error's status, not a 500."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import RoundFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def test_a_malformed_query_parameter_on_a_page_is_a_bilingual_400():
    round_ = RoundFactory(tournament=TournamentFactory(slug="mw"), number=1)
    response = Client().get(f"/tournaments/mw/rounds/{round_.number}/?q=Hans%00en")
    assert response.status_code == 400
    page = response.content.decode()
    assert "ikke kan gemmes" in page and "cannot be stored" in page


def test_the_api_answers_its_own_json_for_the_same_refusal():
    TournamentFactory(slug="mw")
    response = Client().get("/api/tournaments/mw/standings/?round=%C2%B2")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "round_param_invalid" and error["message_da"]
