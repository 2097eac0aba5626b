"""Season pages: public calendar, ranking and CSV (cached), and the organiser's pages."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from competition.services.knockout import knockout_create
from competition.services.pairing import round_publish, round_start
from games.services.results import game_result_record
from people.models import Person
from season.models import SeriesEvent
from season.services.series import series_create, series_event_add
from tests.factories import UserFactory
from tests.season.conftest import PAIRS, everyone_consents, knockout_event
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return UserFactory(username="vis-org")


@pytest.fixture
def season(organiser):
    series = series_create(actor=organiser, name="Visningssæson", qualifiers_per_event=2)
    series_event_add(
        series=series, actor=organiser, tournament=knockout_event(organiser, PAIRS[:4])
    )
    upcoming = knockout_event(organiser, PAIRS[4:8], finish=False)
    series_event_add(series=series, actor=organiser, tournament=upcoming)
    everyone_consents()
    return series


def test_the_overview_shows_calendar_results_and_qualified_pairs(season, client):
    html = client.get(reverse("season:overview", args=[season.slug])).content.decode()
    assert html.count('class="event-card') == 2
    assert "Mette Hansen &amp; Jens Nielsen" in html and "Kvalificeret til finalen" in html
    assert "Afsluttet" in html or "Færdig" in html or "event-finished" in html
    assert "Foreløbig" in html  # the second qualifier has not been played


def test_the_ranking_page_updates_when_a_result_comes_in(season, organiser, client):
    url = reverse("season:ranking", args=[season.slug])
    before = client.get(url).content.decode()
    assert before.count('<td class="rank">') == 4
    event = season.events.order_by("pk").last().tournament
    round_ = knockout_create(tournament=event, actor=organiser, source="seeds")
    round_publish(round=round_, actor=organiser)
    round_start(round=round_, actor=organiser)
    game_result_record(game=round_.games.first(), actor=organiser, winner="YB")
    after = client.get(url).content.decode()
    # The second event's four pairs are in (provisionally): the page is fresh, not cached.
    assert after.count('<td class="rank">') == 8
    fragment = client.get(url + "?fragment=1").content.decode()
    assert fragment.count('<td class="rank">') == 8 and "<html" not in fragment


def test_the_ranking_csv_has_names_and_results(season, client):
    response = client.get(reverse("season:ranking_csv", args=[season.slug]))
    text = response.content.decode("utf-8-sig")
    lines = text.strip().splitlines()
    assert response["Content-Type"].startswith("text/csv")
    assert lines[0].startswith("rank;pair;player_1;player_2;club;points;qualified")
    assert lines[1].split(";")[2:4] == ["Mette Hansen", "Jens Nielsen"]
    assert len(lines) == 5
    assert "@" not in text


def test_unpublished_seasons_are_for_their_organisers_only(season, organiser, client):
    season.published = False
    season.save()
    assert client.get(reverse("season:overview", args=[season.slug])).status_code == 404
    assert season.slug not in client.get(reverse("season:list")).content.decode()
    own = Client()
    own.force_login(organiser)
    assert own.get(reverse("season:overview", args=[season.slug])).status_code == 200


def test_the_organiser_makes_the_final_from_the_page(season, organiser):
    client = Client()
    client.force_login(organiser)
    final_url = reverse("season:organiser_final", args=[season.slug])
    page = client.get(final_url).content.decode()
    assert (
        'id="final-form"' not in page and "Ikke alle kvalifikationsturneringer er færdige" in page
    )
    refused = client.post(final_url, {"name": "Finalen", "date": "2026-11-28"})
    assert "Ikke alle kvalifikationsturneringer er færdige" in refused.content.decode()
    event = season.events.order_by("pk").last()
    event.delete()  # the unplayed qualifier leaves the season
    response = client.post(final_url, {"name": "Finalen", "date": "2026-11-28", "venue": "Odense"})
    final = Tournament.objects.get(name="Finalen")
    assert response.status_code == 302
    assert response["Location"] == reverse("tournament:organiser_pairs", args=[final.slug])
    assert final.date == datetime.date(2026, 11, 28) and final.pairs.count() == 2
    assert season.events.filter(kind=SeriesEvent.Kind.FINAL, tournament=final).exists()


def test_organiser_pages_refuse_others(season):
    stranger = Client()
    stranger.force_login(UserFactory())
    for name in (
        "organiser_dashboard",
        "organiser_people",
        "organiser_final",
        "organiser_settings",
    ):
        assert stranger.get(reverse(f"season:{name}", args=[season.slug])).status_code == 403
    anonymous = Client().get(reverse("season:organiser_dashboard", args=[season.slug]))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/login/")


def test_the_settings_form_shows_and_takes_the_points_table_as_text(season, organiser):
    client = Client()
    client.force_login(organiser)
    url = reverse("season:organiser_settings", args=[season.slug])
    assert 'value="25, 20, 16, 13' in client.get(url).content.decode()
    form = {
        "name": season.name,
        "description": "",
        "method": "points",
        "qualifiers_per_event": 4,
        "pass_down": "on",
        "points_table": "10, 6, 4",
        "best_results": 2,
        "final_places": 8,
        "tiebreak": "latest",
        "published": "on",
    }
    assert client.post(url, form).status_code == 302
    season.refresh_from_db()
    assert season.points_table == [10, 6, 4] and season.tiebreak == "latest"
    refused = client.post(url, {**form, "points_table": "4, 6"})
    assert "En lavere placering kan ikke give flere point" in refused.content.decode()
    season.refresh_from_db()
    assert season.points_table == [10, 6, 4]


def test_the_event_form_refuses_a_kind_other_than_qualifier_or_final(organiser):
    from season.forms import EventAddForm

    event = knockout_event(organiser, PAIRS[:4])
    tournaments = Tournament.objects.filter(pk=event.pk)
    refused = EventAddForm({"tournament": event.pk, "kind": "semifinal"}, tournaments=tournaments)
    assert not refused.is_valid() and refused.has_error("kind", "invalid_choice")
    taken = EventAddForm({"tournament": event.pk, "kind": "final"}, tournaments=tournaments)
    assert taken.is_valid() and taken.cleaned_data["kind"] == SeriesEvent.Kind.FINAL


def test_the_public_season_names_only_players_who_consented(organiser, client):
    """A season gathers a player's results across events: only a public person is named."""
    series = series_create(actor=organiser, name="Samtykkesæson", qualifiers_per_event=2)
    series_event_add(
        series=series, actor=organiser, tournament=knockout_event(organiser, PAIRS[:4])
    )
    Person.objects.filter(name="Mette Hansen").update(
        publish_consent=True, consent_at=timezone.now()
    )
    pages = {
        name: client.get(reverse(name, args=[series.slug])).content.decode("utf-8-sig")
        for name in ("season:overview", "season:ranking", "season:ranking_csv")
    }
    for name, text in pages.items():
        assert "Jens Nielsen" not in text, name
        assert "Mette Hansen" in text, name
        assert "en spiller" in text, name
    ranking = client.get(reverse("api:season-ranking", args=[series.slug])).json()
    assert ranking[0]["players"] == ["Mette Hansen", "en spiller"]
    assert ranking[0]["persons"][1] is None and ranking[0]["persons"][0] is not None
    # The season's organiser sees every name (the API's ranking, the final's page).
    client.force_login(organiser)
    ranking = client.get(reverse("api:season-ranking", args=[series.slug])).json()
    assert ranking[0]["players"] == ["Mette Hansen", "Jens Nielsen"]
    final = client.get(reverse("season:organiser_final", args=[series.slug])).content.decode()
    assert "Jens Nielsen" in final
