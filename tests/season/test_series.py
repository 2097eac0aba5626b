"""Seasons and their events, and the live qualification ranking over real tournaments."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from rest_framework.test import APIClient

from competition.services.knockout import knockout_create
from competition.services.pairing import round_publish, round_start
from core.errors import Conflict, PermissionDenied
from games.services.results import game_result_record
from season.forms import SeriesForm
from season.models import Series, SeriesAudit, SeriesEvent
from season.selectors import series_overview
from season.services.series import (
    series_create,
    series_event_add,
    series_event_remove,
    series_update,
)
from tests.factories import TournamentFactory, UserFactory, organiser_of
from tests.season.conftest import PAIRS, knockout_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return UserFactory(username="saeson-org")


@pytest.fixture
def series(organiser):
    return series_create(actor=organiser, name="DM-sæsonen 2026", qualifiers_per_event=2)


def test_create_makes_the_creator_organiser_and_a_slug(organiser, series):
    assert series.slug == "dm-saesonen-2026"
    assert series.roles.get().user == organiser
    assert SeriesAudit.objects.filter(series=series, action="series_create").exists()
    with pytest.raises(PermissionDenied):
        series_create(actor=AnonymousUser(), name="Anonym sæson")
    assert series_create(actor=organiser, name="new").slug != "new"


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"qualifiers_per_event": 0}, "field_out_of_range"),
        ({"final_places": "many"}, "invalid"),
        ({"points_table": [10, 12, 8]}, "points_table_rising"),
        ({"points_table": [10, -1]}, "points_table_invalid"),
        ({"points_table": []}, "points_table_invalid"),
        ({"method": "lottery"}, "method_unknown"),
        ({"tiebreak": "coin"}, "tiebreak_unknown"),
        ({"pass_down": "maybe"}, "invalid"),
        ({"name": "  "}, "invalid"),
    ],
)
def test_bad_settings_are_refused_at_the_api_and_change_nothing(organiser, series, fields, code):
    client = APIClient()
    client.force_login(organiser)
    before = Series.objects.filter(pk=series.pk).values().get()
    refused = client.patch(f"/api/seasons/{series.slug}/", fields, format="json")
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == code and error["message_en"] != error["message_da"]
    assert Series.objects.filter(pk=series.pk).values().get() == before


@pytest.mark.parametrize(
    ("points_table", "code"),
    [("10, 12, 8", "points_table_rising"), ("10, x", "points_table_invalid"), ("", None)],
)
def test_the_settings_form_reads_the_points_table_as_text(series, points_table, code):
    data = {**SeriesForm(instance=series).initial, "points_table": points_table}
    form = SeriesForm(data, instance=series)
    assert not form.is_valid()
    assert form.has_error("points_table", code)


def test_update_takes_only_settings(organiser, series):
    with pytest.raises(TypeError):
        series_update(series=series, actor=organiser, colour="red")  # type: ignore[call-arg]


def test_update_accepts_a_points_table_as_text_and_bumps_the_version(organiser, series):
    version = series.data_version
    form = SeriesForm(
        {
            **SeriesForm(instance=series).initial,
            "method": "points",
            "points_table": "25, 20 16;13",
            "best_results": 2,
        },
        instance=series,
    )
    assert form.is_valid(), form.errors
    series = series_update(series=series, actor=organiser, **form.settings())
    assert series.points_table == [25, 20, 16, 13] and series.method == "points"
    assert series.data_version == version + 1
    with pytest.raises(PermissionDenied):
        series_update(series=series, actor=UserFactory(), name="Overtaget")


def test_only_own_tournaments_can_be_added_and_a_season_has_one_final(organiser, series):
    mine = TournamentFactory()
    organiser_of(mine, "saeson-org")
    theirs = TournamentFactory()
    with pytest.raises(PermissionDenied):
        series_event_add(series=series, actor=organiser, tournament=theirs)
    event = series_event_add(series=series, actor=organiser, tournament=mine)
    assert event.kind == SeriesEvent.Kind.QUALIFIER
    with pytest.raises(Conflict) as refused:
        series_event_add(series=series, actor=organiser, tournament=mine)
    assert refused.value.code == "event_in_season"
    final, other = TournamentFactory(), TournamentFactory()
    for t in (final, other):
        organiser_of(t, "saeson-org")
    series_event_add(series=series, actor=organiser, tournament=final, kind="final")
    with pytest.raises(Conflict) as refused:
        series_event_add(series=series, actor=organiser, tournament=other, kind="final")
    assert refused.value.code == "season_final_exists"
    series_event_remove(series=series, actor=organiser, event=event)
    assert not series.events.filter(tournament=mine).exists()
    assert mine.pk and type(mine).objects.filter(pk=mine.pk).exists()


def test_the_ranking_follows_results_live_and_knows_a_pair_across_events(organiser, series):
    first = knockout_event(organiser, PAIRS[:4])
    # The same people as in the first event (one written differently), other partners too.
    second_pairs = [PAIRS[4], ("mette  hansen", "Jens Nielsen"), PAIRS[5], PAIRS[6]]
    second = knockout_event(organiser, second_pairs, finish=False)
    for event in (first, second):
        series_event_add(series=series, actor=organiser, tournament=event)
    overview = series_overview(series=series, public=False)  # the organiser's view: all names
    mette = [row for row in overview.ranking if row.entry.player_names[1] == "Jens Nielsen"]
    assert len(mette) == 1 and len(mette[0].results) == 1  # the second event has no results
    assert [r.entry.pair.player_1.name for r in overview.qualified] == [
        "Mette Hansen",
        "Anne Larsen",
    ]
    assert overview.provisional

    # A result comes in at the second event: the ranking shows it at once.
    round_ = knockout_create(tournament=second, actor=organiser, source="seeds")
    round_publish(round=round_, actor=organiser)
    round_start(round=round_, actor=organiser)
    for game in round_.games.all():
        game_result_record(game=game, actor=organiser, winner="RG")  # the worse seed wins
    overview = series_overview(series=series, public=False)  # the organiser's view: all names
    mette = [row for row in overview.ranking if row.entry.player_names[1] == "Jens Nielsen"]
    assert len(mette) == 1 and len(mette[0].results) == 2
    assert mette[0].row.provisional


def test_unpublished_tournaments_are_left_out_of_the_public_season(organiser, series):
    event = knockout_event(organiser, PAIRS[:4])
    series_event_add(series=series, actor=organiser, tournament=event)
    event.published = False
    event.save()
    assert series_overview(series=series).ranking == []
    assert len(series_overview(series=series, public=False).ranking) == 4


def test_a_singles_event_is_refused_because_a_season_ranks_pairs(organiser, series):
    duo = TournamentFactory(ruleset="duo", name="DUO-pokalen")
    organiser_of(duo, "saeson-org")
    with pytest.raises(Conflict) as err:
        series_event_add(series=series, actor=organiser, tournament=duo)
    assert err.value.code == "season_singles_event"
    assert "DUO-pokalen" in err.value.message_en and "DUO-pokalen" in err.value.message_da
    assert err.value.message_en != err.value.message_da
    assert not SeriesEvent.objects.filter(series=series).exists()
