"""Ratings of a singles event (DUO, docs/rulesets/duo.md S1): a side is one person."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from games.services.results import game_result_record
from ratings.compute import RatedGame, rate_games
from ratings.models import PairRating, PersonRating, PersonRatingChange
from ratings.services import ratings_recompute, ratings_seed_event
from tests.factories import (
    GameFactory,
    PairFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    organiser_of,
)
from tournament.models import Pair


def test_a_singles_game_rates_one_person_a_side_and_no_pair():
    outcome = rate_games([RatedGame("k1", 1, (1,), (2,), "YB")])
    assert outcome.people[1].mu > outcome.people[2].mu
    assert (outcome.people[1].games, outcome.people[1].wins) == (1, 1)
    assert outcome.pairs == {} and outcome.pair_changes == []
    assert [c.subject for c in outcome.person_changes] == [1, 2]


def _singles_event(day: datetime.date) -> Any:
    return TournamentFactory(ruleset="duo", date=day)


def _entrant(tournament: Any, person: Any) -> Pair:
    player = PlayerFactory(tournament=tournament, name=person.name, person=person)
    return PairFactory(tournament=tournament, player_1=player, player_2=None)


@pytest.mark.django_db(transaction=True)
def test_a_singles_result_rates_its_two_people_and_seeds_the_next_event(
    people: list[Any], updates_now: list[int]
) -> None:
    anna, bo, carl, _ = people
    event = _singles_event(datetime.date(2026, 1, 10))
    round_ = RoundFactory(tournament=event, number=1)
    game = GameFactory(
        round=round_, pair_yb=_entrant(event, anna), pair_rg=_entrant(event, bo), first_dealer="R"
    )
    game_result_record(game=game, actor=organiser_of(event), winner="YB")
    assert updates_now == [game.pk]
    assert PersonRating.objects.get(person=anna).mu > PersonRating.objects.get(person=bo).mu
    assert PersonRatingChange.objects.filter(game=game).count() == 2
    assert not PairRating.objects.exists()
    rated = sorted(PersonRating.objects.values_list("person_id", "mu"))
    ratings_recompute()
    assert sorted(PersonRating.objects.values_list("person_id", "mu")) == rated

    later = _singles_event(datetime.date(2026, 2, 1))
    weak, new, strong = _entrant(later, bo), _entrant(later, carl), _entrant(later, anna)
    assert ratings_seed_event(tournament=later, actor=organiser_of(later, "later-boss")) == 3
    seeds = {p.pk: p.seed for p in Pair.objects.filter(tournament=later)}
    assert [seeds[p.pk] for p in (strong, new, weak)] == [1, 2, 3]
