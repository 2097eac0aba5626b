"""Seeding an event's first round (and knockout) by the players' ratings."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from competition.services.pairing import round_pair
from core.errors import PermissionDenied
from games.services.results import game_result_record
from ratings.services import ratings_seed_event
from tests.factories import (
    PairFactory,
    PersonFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    organiser_of,
)
from tournament.models import Pair

pytestmark = pytest.mark.django_db(transaction=True)


def test_pairs_are_seeded_by_rating_and_round_one_follows(
    people: list[Any], make_game: Any, updates_now: list[int]
) -> None:
    anna, bo, carl, dina = people
    for day in (1, 2, 3):  # Anna and Bo beat Carl and Dina three times
        game = make_game(datetime.date(2026, 1, day), (anna, bo), (carl, dina))
        game_result_record(game=game, actor=make_game.organiser(game), winner="YB")
    event = TournamentFactory(date=datetime.date(2026, 5, 1))
    boss = organiser_of(event, "seed-boss")

    def pair(a: Any, b: Any) -> Pair:
        players = [PlayerFactory(tournament=event, name=p.name, person=p) for p in (a, b)]
        return PairFactory(tournament=event, player_1=players[0], player_2=players[1])

    newcomers = [PersonFactory(), PersonFactory()]
    weak, new, strong = pair(carl, dina), pair(*newcomers), pair(anna, bo)
    assert ratings_seed_event(tournament=event, actor=boss) == 3
    seeds = {p.pk: (p.seed, p.rating) for p in Pair.objects.filter(tournament=event)}
    assert [seeds[p.pk][0] for p in (strong, new, weak)] == [1, 2, 3]
    assert seeds[strong.pk][1] > seeds[new.pk][1] > seeds[weak.pk][1]
    # With seeds, the automatic first round is paired by seed.
    round_one = round_pair(tournament=event, actor=boss)
    assert round_one.pairing_method == "seed"


def test_only_an_organiser_may_seed(people: list[Any]) -> None:
    event = TournamentFactory()
    PairFactory(tournament=event)
    with pytest.raises(PermissionDenied):
        ratings_seed_event(tournament=event, actor=UserFactory())
    assert not Pair.objects.filter(seed__isnull=False).exists()


def test_the_api_seeds_for_an_organiser_only(client: Any, people: list[Any]) -> None:
    event = TournamentFactory()
    pairs = [PairFactory(tournament=event) for _ in range(3)]
    url = f"/api/tournaments/{event.slug}/seed-by-rating/"
    client.force_login(UserFactory())
    refused = client.post(url, content_type="application/json")
    assert refused.status_code == 403 and refused.json()["error"]["message_da"]
    assert not Pair.objects.filter(seed__isnull=False).exists()
    client.force_login(organiser_of(event, "api-boss"))
    answer = client.post(url, content_type="application/json")
    assert answer.status_code == 200 and answer.json() == {"seeded": 3}
    # No ratings yet: every pair is equally new, so the start numbers decide.
    assert [p.seed for p in Pair.objects.filter(pk__in=[p.pk for p in pairs])] == [1, 2, 3]


def test_the_organisers_button_seeds_and_returns_to_the_pairs(
    client: Any, people: list[Any]
) -> None:
    event = TournamentFactory()
    PairFactory(tournament=event)
    url = f"/organise/{event.slug}/seed-by-rating/"
    client.force_login(UserFactory())
    assert client.post(url).status_code == 403
    assert not Pair.objects.filter(seed__isnull=False).exists()
    client.force_login(organiser_of(event, "button-boss"))
    answer = client.post(url)
    assert answer.status_code == 302 and answer["Location"] == f"/organise/{event.slug}/pairs/"
    assert Pair.objects.get(tournament=event).seed == 1
    page = client.get(answer["Location"])
    assert "seed-by-rating" in page.content.decode()
