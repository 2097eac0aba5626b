"""Registration links players to people, and the sign-up settings of an event."""

from __future__ import annotations

import datetime
import importlib

import pytest
from django.apps import apps
from django.utils import timezone

from competition.pairs_csv import pairs_csv_read
from core.errors import Conflict
from people.models import Person, PersonMatch
from tests.factories import (
    PersonFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    organiser_of,
)
from tournament.models import AuditEntry, Pair, Player, TournamentRole
from tournament.services.registration import (
    pair_register,
    pair_register_signed_up,
    pair_update,
    pair_withdraw,
    pairs_import_csv,
    tournament_create,
    tournament_update,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    tournament = TournamentFactory()
    return tournament, organiser_of(tournament)


def _earlier_event(organiser, *players, club=""):
    """An earlier event of ``organiser`` where ``players`` played: their people are hers."""
    earlier = TournamentFactory()
    TournamentRole.objects.create(
        tournament=earlier, user=organiser, role=TournamentRole.Role.ORGANISER
    )
    pair_register(
        tournament=earlier,
        actor=organiser,
        player_1=players[0],
        player_2=players[1] if len(players) > 1 else "Makker Makkersen",
        club=club,
    )
    return earlier


def test_registered_players_are_the_people_known_from_the_organisers_earlier_events(event):
    tournament, organiser = event
    earlier = _earlier_event(organiser, "Mette Hansen", "Jens Nielsen", club="Odense")
    pair = pair_register(
        tournament=tournament,
        actor=organiser,
        player_1="mette  hansen",
        player_2="Ny Spiller",
        club="ODENSE",
    )
    mette = Player.objects.get(tournament=earlier, name="Mette Hansen").person
    assert pair.player_1.person == mette
    assert pair.player_2.person is not None and pair.player_2.person != mette
    assert Person.objects.count() == 3
    assert not PersonMatch.objects.exists()


def test_a_person_of_another_organisers_events_is_suggested_not_linked(event):
    tournament, organiser = event
    earlier = TournamentFactory()
    pair_register(
        tournament=earlier,
        actor=organiser_of(earlier, "o2"),
        player_1="Mette Hansen",
        player_2="Jens Nielsen",
        club="Odense",
    )
    mette = Player.objects.get(tournament=earlier, name="Mette Hansen").person
    pair = pair_register(
        tournament=tournament, actor=organiser, player_1="Mette Hansen", player_2="Ny Spiller",
        club="Odense",
    )  # fmt: skip
    assert pair.player_1.person != mette and pair.player_1.person.name == "Mette Hansen"
    (match,) = PersonMatch.objects.all()
    assert (match.new, match.known, match.status) == (pair.player_1.person, mette, "open")
    assert match.context == f"tournament:{tournament.pk}"
    # Registering her again elsewhere in this event's own people links to the new one.
    later = TournamentFactory()
    TournamentRole.objects.create(
        tournament=later, user=organiser, role=TournamentRole.Role.ORGANISER
    )
    again = pair_register(
        tournament=later, actor=organiser, player_1="Mette Hansen", player_2="X Y", club="Odense"
    )
    assert again.player_1.person == pair.player_1.person
    assert PersonMatch.objects.count() == 1


def test_a_known_person_in_no_event_is_nobodys_to_link():
    tournament = TournamentFactory()
    organiser = organiser_of(tournament)
    lonely = PersonFactory(name="Pia Madsen", club="Vejle")
    pair = pair_register(
        tournament=tournament, actor=organiser, player_1="Pia Madsen", player_2="B B",
        club="Vejle",
    )  # fmt: skip
    assert pair.player_1.person != lonely
    assert PersonMatch.objects.filter(new=pair.player_1.person, known=lonely).exists()


def test_given_persons_are_used_as_they_are(event):
    tournament, organiser = event
    a, b = PersonFactory(name="Anne Larsen", club="X"), PersonFactory(name="Søren Poulsen")
    pair = pair_register(
        tournament=tournament,
        actor=organiser,
        player_1="Anne Larsen",
        player_2="Søren Poulsen",
        persons=(a, b),
    )
    assert (pair.player_1.person, pair.player_2.person) == (a, b)


def test_csv_import_links_every_player_with_two_queries_for_people(
    event, django_assert_max_num_queries
):
    tournament, organiser = event
    _earlier_event(organiser, "Pia Madsen", club="Vejle")
    rows = "\n".join(f"Spiller {k}a;Spiller {k}b;Klub" for k in range(30))
    text = f"player_1;player_2;club\nPia Madsen;Thomas Kristensen;Vejle\n{rows}\n"
    read = pairs_csv_read(text)
    report = pairs_import_csv(tournament=tournament, actor=organiser, rows=read.rows)
    assert report.ok and len(report.created) == 31
    assert not Player.objects.filter(tournament=tournament, person__isnull=True).exists()
    assert report.created[0].player_1.person.name == "Pia Madsen"
    assert Person.objects.filter(name="Pia Madsen").count() == 1


def test_a_corrected_name_is_linked_anew(event):
    tournament, organiser = event
    _earlier_event(organiser, "Lars Andersen", club="København")
    known = Person.objects.get(name="Lars Andersen")
    pair = pair_register(
        tournament=tournament,
        actor=organiser,
        player_1="Lars Andersn",
        player_2="Kirsten Pedersen",
        club="København",
    )
    typo = pair.player_1.person
    pair_update(pair=pair, actor=organiser, player_1="Lars Andersen")
    pair.player_1.refresh_from_db()
    assert pair.player_1.person == known and typo != known


def test_a_signed_up_pair_needs_no_organiser_and_is_audited_as_a_sign_up(event):
    tournament, _organiser = event
    a, b = PersonFactory(name="Ida Nissen"), PersonFactory(name="Emil Lauridsen")
    pair = pair_register_signed_up(
        tournament=tournament,
        actor=None,
        player_1="Ida Nissen",
        player_2="Emil Lauridsen",
        club="",
        name="",
        persons=(a, b),
    )
    assert pair.status == Pair.Status.REGISTERED and pair.player_1.person == a
    assert AuditEntry.objects.filter(tournament=tournament, action="pair_signup").exists()
    with pytest.raises(Conflict):  # the same checks as the organiser's form
        pair_register_signed_up(
            tournament=tournament,
            actor=None,
            player_1="Ida Nissen",
            player_2="Other",
            club="",
            name="",
            persons=(a, b),
        )


def test_withdraw_removes_the_pair_before_the_start_and_is_refused_after(event):
    tournament, organiser = event
    pair = pair_register(tournament=tournament, actor=organiser, player_1="A A", player_2="B B")
    version = tournament.data_version
    pair_withdraw(pair=pair, actor=None)
    assert not Pair.objects.filter(pk=pair.pk).exists()
    assert not Player.objects.filter(tournament=tournament).exists()
    assert AuditEntry.objects.filter(action="pair_withdraw").exists()
    tournament.refresh_from_db()
    assert tournament.data_version > version
    late = pair_register(tournament=tournament, actor=organiser, player_1="C C", player_2="D D")
    RoundFactory(tournament=tournament, number=1)
    with pytest.raises(Conflict) as refused:
        pair_withdraw(pair=late, actor=None)
    assert refused.value.code == "tournament_started"
    assert Pair.objects.filter(pk=late.pk).exists()


def test_sign_up_settings_are_checked_and_saved(event):
    from rest_framework.test import APIClient

    tournament, organiser = event
    api = APIClient()
    api.force_login(organiser)
    url = f"/api/tournaments/{tournament.slug}/"
    settings = {
        "signup_capacity": 24,
        "signup_closes_at": "2026-11-20T18:00",
        "signup_approval": True,
    }
    assert api.patch(url, settings, format="json").status_code == 200
    tournament.refresh_from_db()
    assert tournament.signup_capacity == 24 and tournament.signup_approval
    # A time without a zone is Danish time.
    assert timezone.localtime(tournament.signup_closes_at).hour == 18
    for bad, code in (
        ({"signup_capacity": 0}, "field_out_of_range"),
        ({"signup_capacity": "many"}, "invalid"),
        ({"signup_closes_at": "next friday"}, "invalid"),
        ({"signup_approval": "yes please"}, "invalid"),
    ):
        refused = api.patch(url, bad, format="json")
        assert refused.status_code == 400 and refused.json()["error"]["code"] == code
    tournament_update(
        tournament=tournament, actor=organiser, signup_capacity=None, signup_closes_at=None
    )
    tournament.refresh_from_db()
    assert tournament.signup_capacity is None and tournament.signup_closes_at is None


def test_create_accepts_sign_up_settings(event):
    _tournament, organiser = event
    closes = timezone.now() + datetime.timedelta(days=7)
    created = tournament_create(
        actor=organiser,
        name="Kval 1",
        date="2026-10-01",
        signup_closes_at=closes,
        signup_capacity=16,
    )
    assert created.signup_closes_at == closes and created.signup_capacity == 16


def test_the_data_migration_links_existing_players_one_person_per_name_and_club():
    migration = importlib.import_module(
        "tournament.migrations.0005_player_person_and_signup_settings"
    )
    first = PlayerFactory(name="Hanne Jensen", club="Aalborg")
    again = PlayerFactory(name="hanne  jensen", club="AALBORG")
    other = PlayerFactory(name="Hanne Jensen", club="")
    migration.link_players_to_people(apps, None)
    for player in (first, again, other):
        player.refresh_from_db()
    assert first.person == again.person and first.person.name == "Hanne Jensen"
    assert other.person != first.person
