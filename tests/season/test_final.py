"""The final, made in one step from the qualified pairs, seeded by the ranking."""

from __future__ import annotations

import datetime

import pytest

from core.errors import Conflict, PermissionDenied
from season.models import SeriesEvent
from season.selectors import series_overview
from season.services.final import series_final_create
from season.services.series import series_create, series_event_add
from tests.factories import UserFactory
from tests.season.conftest import PAIRS, knockout_event
from tournament.models import Pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return UserFactory(username="finale-org")


def season_with(organiser, *events, **settings):
    series = series_create(actor=organiser, name="Sæson", **settings)
    for event in events:
        series_event_add(series=series, actor=organiser, tournament=event)
    return series


def make_final(series, organiser):
    return series_final_create(
        series=series,
        actor=organiser,
        name="DM-finalen",
        date=datetime.date(2026, 11, 28),
        venue="Odense",
    )


def test_the_final_holds_every_qualified_pair_seeded_by_the_ranking(organiser):
    first = knockout_event(organiser, PAIRS[:4], time_limit_minutes=45, alert_minutes=35)
    # Mette and Jens win again: their place passes down to the third pair.
    second = knockout_event(organiser, [PAIRS[0], PAIRS[4], PAIRS[5], PAIRS[6]])
    series = season_with(organiser, first, second, qualifiers_per_event=2, pass_down=True)
    ranking = series_overview(series=series, public=False)
    expected = [row.entry.player_names for row in ranking.qualified]
    assert len(expected) == 4

    created = make_final(series, organiser)
    final = created.tournament
    pairs = list(Pair.objects.filter(tournament=final).order_by("seed"))
    assert [(p.player_1.name, p.player_2.name) for p in pairs] == expected
    assert [p.seed for p in pairs] == [1, 2, 3, 4]
    # The same people, not look-alikes: the players are linked to the season's persons.
    assert [p.player_1.person for p in pairs] == [r.entry.persons[0] for r in ranking.qualified]
    # Settings come from the latest qualifier (which kept the defaults here).
    assert final.time_limit_minutes == second.time_limit_minutes
    assert final.knockout_size == second.knockout_size
    assert series.events.get(kind=SeriesEvent.Kind.FINAL).tournament == final
    with pytest.raises(Conflict) as refused:
        make_final(series, organiser)
    assert refused.value.code == "season_final_exists"


def test_the_final_waits_for_every_qualifier(organiser):
    done = knockout_event(organiser, PAIRS[:4])
    running = knockout_event(organiser, PAIRS[4:8], finish=False)
    series = season_with(organiser, done, running)
    with pytest.raises(Conflict) as refused:
        make_final(series, organiser)
    assert refused.value.code == "season_qualifiers_unfinished"
    assert running.name in refused.value.message_da
    assert not series.events.filter(kind=SeriesEvent.Kind.FINAL).exists()


def test_a_person_qualified_in_two_pairs_plays_in_the_better_one(organiser):
    first = knockout_event(organiser, PAIRS[:4])
    # Mette comes second in the second event with another partner.
    second = knockout_event(organiser, [PAIRS[4], ("Mette Hansen", "Ny Makker"), *PAIRS[5:7]])
    series = season_with(organiser, first, second, qualifiers_per_event=2)
    created = make_final(series, organiser)
    entered = {row.entry.player_names for row in created.entered}
    assert entered == {PAIRS[0], PAIRS[1], PAIRS[4]}
    assert [row.entry.player_names for row in created.left_out] == [("Mette Hansen", "Ny Makker")]
    assert created.tournament.pairs.count() == 3


def test_too_few_qualified_or_a_stranger_makes_no_final(organiser):
    series = season_with(organiser)
    with pytest.raises(Conflict) as refused:
        make_final(series, organiser)
    assert refused.value.code == "season_no_qualifiers"
    with pytest.raises(PermissionDenied):
        series_final_create(series=series, actor=UserFactory(), name="x", date="2026-12-01")
