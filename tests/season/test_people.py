"""The season's people: merging duplicates changes the ranking; anonymising on request."""

from __future__ import annotations

import datetime
import json
import os

import pytest
from django.core.files.base import ContentFile
from django.utils import timezone

from core.errors import Conflict, NotFound, PermissionDenied
from people.models import Person
from printing.models import PrintJob
from season.selectors import series_overview, series_people
from season.services.people import (
    season_person_anonymise,
    season_person_merge_undo,
    season_persons_merge,
)
from season.services.series import series_create, series_event_add
from signup.models import SignUp
from tests.factories import UserFactory
from tests.season.conftest import PAIRS, knockout_event
from tests.signup.conftest import sign_up
from tournament.models import AuditEntry, Pair, Player
from tournament.services.registration import pair_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return UserFactory(username="people-org")


@pytest.fixture
def season(organiser):
    first = knockout_event(organiser, PAIRS[:4])
    # Anne and Søren again, but "Søren" spelt "Soeren": not linked without asking.
    second = knockout_event(organiser, [PAIRS[4], *PAIRS[5:7], ("Anne Larsen", "Soeren Poulsen")])
    series = series_create(
        actor=organiser,
        name="Personsæson",
        method="points",
        points_table=[10, 6, 4, 2],
        best_results=2,
        final_places=4,
    )
    for event in (first, second):
        series_event_add(series=series, actor=organiser, tournament=event)
    return series


def anne_rows(season):
    return [
        r
        for r in series_overview(series=season, public=False).ranking
        if "Anne Larsen" in r.entry.player_names
    ]


def test_merging_a_duplicate_joins_the_pairs_results_and_undo_splits_them(organiser, season):
    assert [len(r.results) for r in anne_rows(season)] == [1, 1]  # two season pairs
    people = series_people(series=season)
    (suggestion,) = [s for s in people.suggestions if s.reason == "same_name_spelling"]
    assert {suggestion.first.name, suggestion.second.name} == {"Søren Poulsen", "Soeren Poulsen"}
    merge = season_persons_merge(
        series=season, actor=organiser, survivor=suggestion.first, duplicate=suggestion.second
    )
    (row,) = anne_rows(season)
    assert len(row.results) == 2 and row.points == 6 + 2  # 2nd in the first, 4th in the second
    assert not [
        s for s in series_people(series=season).suggestions if s.reason == "same_name_spelling"
    ]
    season_person_merge_undo(series=season, actor=organiser, merge=merge)
    assert [len(r.results) for r in anne_rows(season)] == [1, 1]


def test_partners_in_one_event_are_never_one_person(organiser, season):
    lars = Person.objects.get(name="Lars Andersen")
    kirsten = Person.objects.get(name="Kirsten Pedersen")
    with pytest.raises(Conflict) as refused:
        season_persons_merge(series=season, actor=organiser, survivor=lars, duplicate=kirsten)
    assert refused.value.code == "persons_in_same_event"


def test_merge_and_undo_through_the_season(organiser, season):
    jens = Player.objects.filter(name="Jens Nielsen").first().person
    peter = Player.objects.filter(name="Peter Christensen").first().person
    susanne = Player.objects.filter(name="Susanne Jørgensen").first().person
    before = len(series_overview(series=season).ranking)
    # Pretend Peter (first event) and Susanne (second) are one human: the pairs stay
    # different (other partners), but the people list shrinks by one.
    merge = season_persons_merge(series=season, actor=organiser, survivor=peter, duplicate=susanne)
    ids = {p.person.pk for p in series_people(series=season).people}
    assert susanne.pk not in ids and peter.pk in ids
    assert len(series_overview(series=season).ranking) == before
    with pytest.raises(PermissionDenied):
        season_person_merge_undo(series=season, actor=UserFactory(), merge=merge)
    season_person_merge_undo(series=season, actor=organiser, merge=merge)
    assert Player.objects.filter(name="Susanne Jørgensen", person=susanne).exists()
    outsider = Person.objects.create(name="Aldrig Spillet")
    with pytest.raises(NotFound):
        season_persons_merge(series=season, actor=organiser, survivor=jens, duplicate=outsider)


def test_anonymise_replaces_the_name_everywhere_it_was_copied(organiser, season, settings):
    mette = Player.objects.filter(name="Mette Hansen").first().person
    signup_event = knockout_event(organiser, PAIRS[4:8], finish=False)
    signup_event.signup_closes_at = timezone.now() + datetime.timedelta(days=2)
    signup_event.save()
    signup = sign_up(signup_event, player_1="Mette Hansen", player_2="Ny Makker", club="")
    assert signup.person_1 == mette
    season_person_anonymise(series=season, actor=organiser, person=mette)
    mette.refresh_from_db()
    assert mette.name == f"Anonym #{mette.pk}" and mette.anonymised_at
    assert not Player.objects.filter(name="Mette Hansen").exists()
    # In the season's event and in the other event she signed up for.
    assert Player.objects.filter(person=mette, name=mette.name).count() == 2
    assert Player.objects.filter(person=mette, tournament=signup_event).exists()
    signup.refresh_from_db()
    assert signup.player_1 == mette.name and signup.email == ""
    assert not AuditEntry.objects.filter(target__contains="Mette Hansen").exists()
    ranking = series_overview(series=season, public=False).ranking
    assert any(mette.name in r.entry.player_names for r in ranking)
    assert not any("Mette Hansen" in r.entry.player_names for r in ranking)
    assert SignUp.objects.filter(anonymised_at__isnull=False).count() == 1


def test_anonymise_reaches_pair_names_and_drops_stored_pdfs(
    organiser, season, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path / "media"
    kirsten = Player.objects.filter(name="Kirsten Pedersen").first().person
    pair = Pair.objects.get(player_1__person=kirsten)
    pair_update(pair=pair, actor=organiser, name="Kirsten & Lars")
    other_pair = Pair.objects.exclude(pk=pair.pk).filter(tournament=pair.tournament).first()
    pair_update(pair=other_pair, actor=organiser, name="Bornholmerne")
    signup_event = knockout_event(organiser, PAIRS[4:8], finish=False)
    signup_event.signup_closes_at = timezone.now() + datetime.timedelta(days=2)
    signup_event.save()
    signup = sign_up(
        signup_event, player_1="Kirsten Pedersen", player_2="Ny Makker", club="",
        pair_name="Team Pedersen",
    )  # fmt: skip
    round_ = pair.tournament.rounds.first()
    job = PrintJob.objects.create(
        tournament=pair.tournament, round=round_, kind=PrintJob.Kind.SCORE_SHEETS_A4,
        status=PrintJob.Status.DONE,
    )  # fmt: skip
    job.file.save("sheets.pdf", ContentFile(b"%PDF Kirsten Pedersen"), save=True)
    stored = job.file.path
    assert os.path.exists(stored)
    with django_capture_on_commit_callbacks(execute=True):
        season_person_anonymise(series=season, actor=organiser, person=kirsten)
    kirsten.refresh_from_db()
    pair.refresh_from_db()
    assert pair.name == "" and pair.display_name == f"{kirsten.name} & Lars Andersen"
    other_pair.refresh_from_db()
    assert other_pair.name == "Bornholmerne"  # another pair's name is left alone
    signup.refresh_from_db()
    assert signup.pair_name == "" and signup.player_1 == kirsten.name
    assert not PrintJob.objects.filter(tournament=pair.tournament).exists()
    assert not os.path.exists(stored)
    for entry in AuditEntry.objects.all():
        assert "Kirsten" not in entry.target and "Kirsten" not in json.dumps(entry.data)
