"""A new event starts unpublished and is published as a setting (the ratings follow);
its rehearsal clock speed is set before play and fixed once a round has started."""

from __future__ import annotations

import datetime

import pytest

from competition.services.pairing import round_pair, round_publish, round_start
from core.errors import ApplicationError
from tests.factories import PairFactory, TournamentFactory, UserFactory, organiser_of
from tournament.models import AuditEntry, Pair
from tournament.services.registration import (
    tournament_create,
    tournament_publish,
    tournament_update,
)
from tournament.signals import tournament_settings_changed

pytestmark = pytest.mark.django_db


def test_a_new_event_starts_unpublished():
    organiser = UserFactory()
    tournament = tournament_create(actor=organiser, name="Fyn Open", date=datetime.date(2027, 3, 6))
    assert tournament.published is False


def test_publishing_is_a_setting_change_the_ratings_hear_of():
    tournament = TournamentFactory(published=False)
    organiser = organiser_of(tournament)
    heard = []

    def receiver(sender, tournament, fields, **kwargs):
        heard.append((tournament.pk, fields))

    tournament_settings_changed.connect(receiver)
    try:
        tournament_publish(tournament=tournament, actor=organiser, published=True)
        tournament_publish(tournament=tournament, actor=organiser, published=True)  # no change
        tournament_publish(tournament=tournament, actor=organiser, published=False)
    finally:
        tournament_settings_changed.disconnect(receiver)
    assert heard == [(tournament.pk, frozenset({"published"}))] * 2
    tournament.refresh_from_db()
    assert tournament.published is False
    changes = [e.data for e in AuditEntry.objects.filter(action="tournament_update")]
    assert len(changes) == 2


def test_only_an_organiser_of_the_event_publishes_it():
    tournament = TournamentFactory(published=False)
    other_events_organiser = organiser_of(TournamentFactory())
    for actor in (UserFactory(), other_events_organiser):
        with pytest.raises(ApplicationError) as err:
            tournament_publish(tournament=tournament, actor=actor, published=True)
        assert err.value.status_code == 403
    tournament.refresh_from_db()
    assert tournament.published is False


def test_the_clock_speed_changes_until_a_round_starts():
    tournament = TournamentFactory()
    organiser = organiser_of(tournament)
    tournament_update(tournament=tournament, actor=organiser, clock_speed=60.0)
    # A paired and published round has not started: still free to change.
    for k in range(4):
        PairFactory(tournament=tournament, start_number=k + 1, status=Pair.Status.CHECKED_IN)
    draft = round_pair(tournament=tournament, actor=organiser)
    round_ = round_publish(round=draft, actor=organiser)
    tournament_update(tournament=tournament, actor=organiser, clock_speed=30.0)
    round_start(round=round_, actor=organiser)
    with pytest.raises(ApplicationError) as err:
        tournament_update(tournament=tournament, actor=organiser, clock_speed=1.0, name="Renamed")
    assert err.value.code == "clock_speed_fixed"
    assert err.value.extra == {"field": "clock_speed"}
    assert "urets hastighed kan ikke længere ændres" in err.value.message_da
    assert "the clock speed can no longer change" in err.value.message_en
    tournament.refresh_from_db()
    assert (tournament.clock_speed, tournament.name) == (30.0, tournament.name)
    assert tournament.name != "Renamed"
    # The same speed again (a settings form saved as it was) is no change.
    tournament_update(tournament=tournament, actor=organiser, clock_speed=30.0, name="Renamed")
    tournament.refresh_from_db()
    assert tournament.name == "Renamed"
    assert round_.games.first().clock.speed == 30.0
