"""The season API: public reads, organiser writes, the ranking as JSON and CSV."""

from __future__ import annotations

import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient

from season.models import Series
from season.services.series import series_create, series_event_add
from tests.factories import UserFactory, organiser_of
from tests.season.conftest import PAIRS, everyone_consents, knockout_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return UserFactory(username="api-org")


@pytest.fixture
def client(organiser):
    client = APIClient()
    client.force_login(organiser)
    return client


def test_create_a_season_add_events_read_the_ranking(organiser, client):
    created = client.post(
        "/api/seasons/",
        {"name": "API-sæson", "method": "points", "points_table": [10, 6, 4, 2]},
        format="json",
    )
    assert created.status_code == 201
    slug = created.json()["slug"]
    event = knockout_event(organiser, PAIRS[:4])
    added = client.post(f"/api/seasons/{slug}/events/", {"tournament": event.slug}, format="json")
    assert added.status_code == 201
    calendar = added.json()["calendar"]
    assert calendar[0]["status"] == "finished" and calendar[0]["podium"][0]["place"] == 1
    everyone_consents()  # the public ranking names public people only
    ranking = APIClient().get(f"/api/seasons/{slug}/ranking/").json()
    assert [r["points"] for r in ranking] == [10, 6, 4, 2]
    assert (
        ranking[0]["players"] == list(PAIRS[0])
        and ranking[0]["results"][0]["tournament"] == event.slug
    )
    assert all(isinstance(p, int) for p in ranking[0]["persons"])
    csv = APIClient().get(f"/api/seasons/{slug}/ranking/csv/")
    assert csv["Content-Type"].startswith("text/csv") and "Mette Hansen" in csv.content.decode()


def test_writes_need_an_organiser_of_this_season(organiser):
    series = series_create(actor=organiser, name="Lukket sæson")
    stranger = APIClient()
    stranger.force_login(organiser_of(knockout_event(organiser, PAIRS[:4]), "fremmed"))
    response = stranger.patch(f"/api/seasons/{series.slug}/", {"name": "Kapret"}, format="json")
    assert response.status_code == 403 and response.json()["error"]["message_da"]
    assert stranger.get(f"/api/seasons/{series.slug}/people/").status_code == 403
    assert APIClient().post("/api/seasons/", {"name": "Anonym"}, format="json").status_code == 403
    series.refresh_from_db()
    assert series.name == "Lukket sæson" and Series.objects.count() == 1


def test_people_merge_through_the_api(organiser, client):
    series = series_create(actor=organiser, name="Personer")
    first = knockout_event(organiser, PAIRS[:4])
    second = knockout_event(organiser, [("Mette Hansen", "Jens Nielsén"), *PAIRS[4:7]])
    for event in (first, second):
        series_event_add(series=series, actor=organiser, tournament=event)
    people = client.get(f"/api/seasons/{series.slug}/people/").json()
    (suggestion,) = [s for s in people["suggestions"] if "Jens" in s["first_name"]]
    merged = client.post(
        f"/api/seasons/{series.slug}/people/merge/",
        {"survivor": suggestion["first"], "duplicate": suggestion["second"]},
        format="json",
    )
    assert merged.status_code == 200
    ranking = client.get(f"/api/seasons/{series.slug}/ranking/").json()
    assert len([r for r in ranking if "Mette Hansen" in r["players"]]) == 1
    undone = client.post(f"/api/seasons/{series.slug}/people/merges/{merged.json()['id']}/undo/")
    assert undone.status_code == 200 and undone.json()["undone_at"]
    bad = client.post(
        f"/api/seasons/{series.slug}/people/merge/",
        {"survivor": 10**9, "duplicate": suggestion["second"]},
        format="json",
    )
    assert bad.status_code == 404 and bad.json()["error"]["code"] == "person_not_in_season"


def test_every_season_and_sign_up_endpoint_is_in_a_valid_schema_without_warnings(tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    paths = yaml.safe_load(out.read_text())["paths"]
    for path in (
        "/api/seasons/",
        "/api/seasons/{season}/ranking/",
        "/api/seasons/{season}/ranking/csv/",
        "/api/seasons/{season}/final/",
        "/api/seasons/{season}/people/merge/",
        "/api/tournaments/{slug}/signup/",
        "/api/tournaments/{slug}/signups/",
        "/api/signup/{signup_token}/withdraw/",
        "/api/signups/{signup_id}/approve/",
    ):
        assert path in paths, path
    csv = paths["/api/seasons/{season}/ranking/csv/"]["get"]["responses"]["200"]["content"]
    assert list(csv) == ["text/csv"]


def test_an_event_kind_other_than_qualifier_or_final_is_refused_at_the_api(organiser, client):
    series = series_create(actor=organiser, name="Sæson med forkert slags")
    event = knockout_event(organiser, PAIRS[:4])
    refused = client.post(
        f"/api/seasons/{series.slug}/events/",
        {"tournament": event.slug, "kind": "semifinal"},
        format="json",
    )
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "invalid" and "kind" in error["fields"]
    assert not series.events.exists()
