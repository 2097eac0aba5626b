"""The hand-over: an event from the website to a venue laptop and back.

The venue laptop is simulated in the same test database: the event is
received under another short name with the laptop's own people, played
there, written back, and then the laptop's event and people are deleted
before the website imports the return (as if they lived on another machine).
The result must equal the same day played on the website itself.
"""

from __future__ import annotations

import datetime
import json
from typing import Any
from unittest import mock

import pytest
from django.db import transaction

from competition.models import HandOver, VenueCopy
from competition.selectors import standings_for_tournament
from competition.services.backup import backup_models, tournament_path
from competition.services.handover import (
    handover_export,
    handover_receive,
    handover_return_export,
    handover_return_import,
    handover_take_back,
)
from competition.services.pairing import round_close, round_pair
from core.errors import ApplicationError
from games.models import Game, MoveEntry
from games.selectors import move_log_verify
from games.services.move_log import demo_fill_logs
from judging.models import Ruling
from people.models import Person
from ratings.models import PersonRating
from ratings.services import ratings_recompute
from season.selectors import series_overview
from season.services.series import series_create, series_event_add
from signup.models import SignUp, SignUpEmail
from tests.competition.helpers import play
from tests.factories import UserFactory
from tournament.models import AuditEntry, Pair, Player, Tournament, TournamentRole
from tournament.services.registration import pair_register, tournament_create

PAIRS = [
    ("Mette Hansen", "Jens Nielsen"),
    ("Anne Larsen", "Søren Poulsen"),
    ("Kirsten Pedersen", "Lars Andersen"),
    ("Hanne Jensen", "Peter Christensen"),
    ("Lene Sørensen", "Michael Rasmussen"),
    ("Susanne Jørgensen", "Henrik Petersen"),
]


class Rollback(Exception):
    pass


@pytest.fixture
def organiser(db: None) -> Any:
    return UserFactory(username="web-org")


@pytest.fixture
def website(organiser: Any) -> Tournament:
    """An event with six pairs (one signed up online) in a season, before the day."""
    tournament = tournament_create(
        actor=organiser,
        name="DM 2026",
        date=datetime.date(2026, 5, 2),
        swiss_rounds=3,
        published=True,
    )
    for seed, (one, two) in enumerate(PAIRS, start=1):
        pair_register(
            tournament=tournament, actor=organiser, player_1=one, player_2=two, seed=seed,
            check_in=True,
        )  # fmt: skip
    pair = Pair.objects.filter(tournament=tournament).order_by("start_number").first()
    signup = SignUp.objects.create(
        tournament=tournament, status=SignUp.Status.CONFIRMED, pair=pair,
        player_1=pair.player_1.name, player_2=pair.player_2.name, email="mette@example.dk",
        consent_at=datetime.datetime(2026, 4, 1, tzinfo=datetime.UTC),
        person_1=pair.player_1.person, person_2=pair.player_2.person,
        client_id="form-1", link_nonce="website-nonce",
    )  # fmt: skip
    SignUpEmail.objects.create(signup=signup, kind=SignUpEmail.Kind.CONFIRMED)
    series = series_create(actor=organiser, name="Sæson 2026", qualifiers_per_event=2)
    series_event_add(series=series, actor=organiser, tournament=tournament)
    return tournament


def play_day(tournament: Tournament, organiser: Any) -> None:
    """Two rounds with results, move logs and a judge's ruling: the same on any installation."""
    for number in range(2):
        round_ = round_pair(tournament=tournament, actor=organiser, random_seed=41 + number)
        play(round_, organiser)
        round_close(round=round_, actor=organiser)
    demo_fill_logs(tournament=tournament, seed=7)
    game = Game.objects.filter(round__tournament=tournament).order_by("round__number", "pk")[0]
    Ruling.objects.create(
        tournament=tournament, game=game, kind="warning", rule="P1", seat="Y",
        pair=game.pair_yb, entry_seq=3, reason="Langsomt spil", judge=organiser,
    )  # fmt: skip


def outcome(tournament: Tournament) -> dict[str, Any]:
    """What the day decided, without ids: results, logs, rulings, standings, ratings, season."""
    ratings_recompute()
    games = Game.objects.filter(round__tournament=tournament).order_by(
        "round__number", "table_number"
    )
    people = Person.objects.filter(players__tournament=tournament)
    series = tournament.season_events.get().series
    return {
        "games": [
            (
                g.round.number,
                g.table_number,
                g.pair_yb.start_number,
                g.pair_rg.start_number,
                g.status,
                g.winner,
                g.locked_yb,
                g.locked_rg,
                g.distance_yb,
                g.distance_rg,
            )
            for g in games.select_related("round", "pair_yb", "pair_rg")
        ],
        # The chains start from each game's id: equal texts, and every chain intact.
        "chains": [move_log_verify(game=g).ok for g in games],
        "logs": [
            (e.game.round.number, e.game.table_number, e.seq, e.seat, e.text)
            for e in MoveEntry.objects.filter(game__round__tournament=tournament)
            .select_related("game__round")
            .order_by("game__round__number", "game__table_number", "seq")
        ],
        "rulings": list(
            Ruling.objects.filter(tournament=tournament).values_list(
                "game__round__number", "game__table_number", "kind", "rule", "reason"
            )
        ),
        "standings": [
            (r.rank, r.start_number, r.points, r.wins, r.buchholz, r.distance_for)
            for r in standings_for_tournament(tournament=tournament)
        ],
        "ratings": sorted(
            (p.name, round(r.mu, 9), round(r.sigma, 9), r.games)
            for p in people.distinct()
            for r in PersonRating.objects.filter(person=p)
        ),
        "season": [
            (row.rank, row.entry.display_name, row.points, row.qualified)
            for row in series_overview(series=series, public=False).ranking
        ],
        "persons": sorted(
            Player.objects.filter(tournament=tournament).values_list("name", "person_id")
        ),
    }


def on_the_website(tournament: Tournament, organiser: Any) -> dict[str, Any]:
    """The day played on the website itself (undone afterwards)."""
    result: dict[str, Any] = {}
    try:
        with transaction.atomic():
            play_day(tournament, organiser)
            result.update(outcome(tournament))
            raise Rollback
    except Rollback:
        pass
    return result


def as_file(document: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(document, ensure_ascii=False))


def at_the_venue(outgoing: dict[str, Any], venue_organiser: Any) -> dict[str, Any]:
    """Receive, play and write back on the 'laptop'; then forget the laptop's data."""
    laptop = handover_receive(document=as_file(outgoing), actor=venue_organiser, slug="dm-venue")
    play_day(laptop, venue_organiser)
    returned = as_file(handover_return_export(tournament=laptop, actor=venue_organiser))
    venue_people = [int(pk) for pk in VenueCopy.objects.get(tournament=laptop).person_ids]
    for model in reversed(backup_models()):
        model._default_manager.filter(**{tournament_path(model): laptop}).delete()
    laptop.delete()
    Person.objects.filter(pk__in=venue_people).delete()
    return returned


def test_the_round_trip_equals_playing_on_the_website(website, organiser):
    expected = on_the_website(website, organiser)
    outgoing = handover_export(tournament=website, actor=organiser)
    assert len(expected["games"]) == 6 and expected["logs"] and expected["rulings"]
    assert all(expected["chains"])

    venue_organiser = UserFactory(username="hall-org")
    returned = at_the_venue(outgoing, venue_organiser)
    persons_before = Person.objects.count()
    with (
        mock.patch("ratings.tasks.ratings_update.delay") as queued,
        transaction.atomic(),
    ):
        handover_return_import(document=returned, actor=organiser, tournament=website)
    # The import asked for the ratings once, from scratch (its on-commit hook).
    assert queued.call_args_list in ([], [mock.call(None)])

    assert outcome(website) == expected
    assert Person.objects.count() == persons_before  # nobody created, nobody matched by name
    handover = HandOver.objects.get(tournament=website)
    assert handover.state == HandOver.State.RETURNED
    signup = SignUp.objects.get(tournament=website)
    assert signup.email == "mette@example.dk" and signup.link_nonce == "website-nonce"
    assert signup.pair.start_number == 1
    assert SignUpEmail.objects.filter(signup=signup).count() == 1
    # Roles given on the laptop stay there: the website's accounts are the website's.
    assert not TournamentRole.objects.filter(tournament=website, user=venue_organiser).exists()
    assert TournamentRole.objects.filter(tournament=website, user=organiser).exists()
    actions = set(AuditEntry.objects.filter(tournament=website).values_list("action", flat=True))
    assert {"handover_sent", "handover_received", "handover_returned"} <= actions


def test_the_return_queues_the_ratings_update(
    website, organiser, django_capture_on_commit_callbacks
):
    outgoing = handover_export(tournament=website, actor=organiser)
    returned = at_the_venue(outgoing, UserFactory())
    with (
        mock.patch("ratings.tasks.ratings_update.delay") as queued,
        django_capture_on_commit_callbacks(execute=True),
    ):
        handover_return_import(document=returned, actor=organiser)
    queued.assert_called_once_with(None)


def test_the_venue_gets_no_contact_data_and_its_own_people(website, organiser):
    outgoing = as_file(handover_export(tournament=website, actor=organiser))
    text = json.dumps(outgoing)
    assert "mette@example.dk" not in text and "website-nonce" not in text
    assert outgoing["event"]["signup_emails"] == []
    assert all(user["email"] == "" for user in outgoing["event"]["users"])
    website_people = set(
        Player.objects.filter(tournament=website).values_list("person_id", flat=True)
    )
    laptop = handover_receive(document=outgoing, actor=UserFactory(), slug="dm-venue")
    laptop_people = set(
        Player.objects.filter(tournament=laptop).values_list("person_id", flat=True)
    )
    assert None not in laptop_people and not laptop_people & website_people
    _refusal(
        "handover_received",
        lambda: handover_receive(document=outgoing, actor=UserFactory(), slug="dm-venue-again"),
    )
    # A second event from the same website reuses the laptop's people: no duplicates.
    handover_take_back(tournament=website, actor=organiser)
    again = handover_receive(
        document=as_file(handover_export(tournament=website, actor=organiser)),
        actor=UserFactory(),
        slug="dm-venue-2",
    )
    assert set(Player.objects.filter(tournament=again).values_list("person_id", flat=True)) == (
        laptop_people
    )


def _refusal(code: str, run: Any) -> ApplicationError:
    with pytest.raises(ApplicationError) as caught:
        run()
    assert caught.value.code == code
    assert caught.value.message_en != caught.value.message_da
    return caught.value


def _website_state(tournament: Tournament) -> Any:
    return (
        list(Game.objects.filter(round__tournament=tournament).values()),
        list(Pair.objects.filter(tournament=tournament).values()),
        list(Tournament.objects.filter(pk=tournament.pk).values()),
    )


def test_a_return_conflicting_with_a_website_change_is_refused_and_changes_nothing(
    website, organiser
):
    outgoing = handover_export(tournament=website, actor=organiser)
    returned = at_the_venue(outgoing, UserFactory())
    # Meanwhile on the website: a pair is renamed.
    pair = Pair.objects.filter(tournament=website).order_by("start_number").last()
    Pair.objects.filter(pk=pair.pk).update(name="Nyt navn")
    before = _website_state(website)
    error = _refusal(
        "handover_conflict",
        lambda: handover_return_import(document=returned, actor=organiser, tournament=website),
    )
    assert "pairs" in error.message_en and "pairs" in error.message_da
    assert _website_state(website) == before
    assert HandOver.objects.get(tournament=website).state == HandOver.State.AT_VENUE


def test_refusals_of_another_event_a_changed_file_and_a_second_return(website, organiser):
    other = tournament_create(actor=organiser, name="Anden", date=datetime.date(2026, 6, 1))
    outgoing = handover_export(tournament=website, actor=organiser)
    returned = at_the_venue(outgoing, UserFactory())

    _refusal(
        "handover_other_event",
        lambda: handover_return_import(document=returned, actor=organiser, tournament=other),
    )
    tampered = as_file(returned)
    tampered["event"]["games"][0]["winner"] = (
        "RG" if tampered["event"]["games"][0]["winner"] == "YB" else "YB"
    )
    _refusal(
        "handover_tampered", lambda: handover_return_import(document=tampered, actor=organiser)
    )
    _refusal(
        "permission_denied",
        lambda: handover_return_import(document=returned, actor=UserFactory()),
    )
    outgoing_changed = as_file(outgoing)
    outgoing_changed["people"][0]["name"] = "Someone Else"
    _refusal(
        "handover_tampered",
        lambda: handover_receive(document=outgoing_changed, actor=organiser, slug="x"),
    )
    _refusal(
        "handover_wrong_direction",
        lambda: handover_receive(document=returned, actor=organiser, slug="x"),
    )

    handover_return_import(document=returned, actor=organiser, tournament=website)
    before = _website_state(website)
    _refusal(
        "handover_returned", lambda: handover_return_import(document=returned, actor=organiser)
    )
    assert _website_state(website) == before


def test_a_taken_back_event_refuses_its_return_and_can_be_handed_over_again(website, organiser):
    outgoing = handover_export(tournament=website, actor=organiser)
    _refusal("handover_open", lambda: handover_export(tournament=website, actor=organiser))
    # While the event is at the venue, the website does not pair its rounds.
    _refusal("handover_at_venue", lambda: round_pair(tournament=website, actor=organiser))
    returned = at_the_venue(outgoing, UserFactory())
    handover_take_back(tournament=website, actor=organiser)
    _refusal(
        "handover_taken_back", lambda: handover_return_import(document=returned, actor=organiser)
    )
    assert handover_export(tournament=website, actor=organiser)["handover"]["key"]
