"""Ratings count only games of rounds everyone sees: a published event, no draft round.

An unpublished event's results re-rate nobody until it is published;
publishing or unpublishing it rates everything again (after the commit,
through the same task a merge uses), and the public rating list follows.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services.results import game_result_record
from ratings.models import PairRating, PersonRating, PersonRatingChange
from ratings.services import ratings_recompute, ratings_update_from_game
from tests.factories import GameFactory, RoundFactory
from tournament.models import Round, Tournament
from tournament.services.registration import tournament_update

pytestmark = pytest.mark.django_db(transaction=True)

D1, D2 = datetime.date(2026, 1, 10), datetime.date(2026, 2, 14)


def _ratings() -> dict[int, tuple[float, float, int, int]]:
    return {
        r.person_id: (round(r.mu, 9), round(r.sigma, 9), r.games, r.wins)
        for r in PersonRating.objects.all()
    }


def _listed(page: str, name: str) -> tuple[str, str, str]:
    """The rating (with a decimal point), games and wins the rating list shows for ``name``."""
    row = re.search(
        rf">{name}</a></td><td[^>]*>[^<]*</td><td class=\"num\"[^>]*>([^<]+)</td>"
        rf"<td class=\"num sigma\"[^>]*>[^<]+</td><td class=\"num\"[^>]*>(\d+)</td>"
        rf"<td class=\"num\"[^>]*>(\d+)</td>",
        page,
    )
    assert row, f"{name} is not on the rating list"
    return row.group(1).replace(",", "."), row.group(2), row.group(3)  # a Danish decimal comma


@pytest.fixture
def world(people: list[Any], make_game: Any, updates_now: list[Any]) -> dict[str, Any]:
    """A published event with one rated game, and a later event not yet published
    with a game between the same people, its result not entered yet."""
    anna, bo, carl, dina = people
    public_game = make_game(D1, (anna, bo), (carl, dina))
    game_result_record(game=public_game, actor=make_game.organiser(public_game), winner="YB")
    hidden_game = make_game(D2, (anna, carl), (bo, dina))
    hidden = hidden_game.round.tournament
    organiser = make_game.organiser(hidden_game)
    Tournament.objects.filter(pk=hidden.pk).update(published=False)
    hidden.refresh_from_db()
    updates_now.clear()
    return {
        "people": people,
        "hidden": hidden,
        "hidden_game": hidden_game,
        "organiser": organiser,
        "before": _ratings(),
    }


def _enter_hidden_result(world: dict[str, Any]) -> None:
    game_result_record(game=world["hidden_game"], actor=world["organiser"], winner="YB")


def test_a_result_of_an_unpublished_event_changes_no_rating(
    world: dict[str, Any], updates_now: list[Any]
) -> None:
    _enter_hidden_result(world)
    assert updates_now == [world["hidden_game"].pk]  # the update ran, and rated nothing
    assert _ratings() == world["before"]
    assert not PersonRatingChange.objects.filter(game=world["hidden_game"]).exists()
    anna, carl = world["people"][0], world["people"][2]
    assert not PairRating.objects.filter(person_low=anna, person_high=carl).exists()
    # A recomputation from scratch agrees: the game does not count.
    assert ratings_recompute() == 1
    assert _ratings() == world["before"]


def test_publishing_rates_the_event_and_the_rating_list_shows_it(
    world: dict[str, Any], updates_now: list[Any]
) -> None:
    _enter_hidden_result(world)
    client = Client()
    page = client.get(reverse("ratings:list")).content.decode()  # cached now
    assert _listed(page, "Anna")[1:] == ("1", "1")
    assert _listed(page, "Carl")[1:] == ("1", "0")
    updates_now.clear()

    tournament_update(tournament=world["hidden"], actor=world["organiser"], published=True)

    assert updates_now == [None]  # from scratch, once the publication is committed
    assert PersonRatingChange.objects.filter(game=world["hidden_game"]).count() == 4
    published = _ratings()
    assert published != world["before"]
    assert published[world["people"][2].pk][2:] == (2, 1)  # Carl: two games, one won
    ratings_recompute()
    assert _ratings() == published  # the same as a recomputation
    page = client.get(reverse("ratings:list")).content.decode()
    carl = PersonRating.objects.get(person=world["people"][2])
    assert _listed(page, "Carl") == (f"{carl.ordinal:.1f}", "2", "1")
    assert _listed(page, "Anna")[1:] == ("2", "2")


def test_unpublishing_takes_the_events_games_out_again(
    world: dict[str, Any], updates_now: list[Any]
) -> None:
    _enter_hidden_result(world)
    tournament_update(tournament=world["hidden"], actor=world["organiser"], published=True)
    assert _ratings() != world["before"]
    client = Client()
    assert _listed(client.get(reverse("ratings:list")).content.decode(), "Bo")[1:] == ("2", "1")
    updates_now.clear()

    tournament_update(tournament=world["hidden"], actor=world["organiser"], published=False)

    assert updates_now == [None]
    assert _ratings() == world["before"]
    assert not PersonRatingChange.objects.filter(game=world["hidden_game"]).exists()
    assert _listed(client.get(reverse("ratings:list")).content.decode(), "Bo")[1:] == ("1", "1")


def test_a_result_corrected_while_unpublished_counts_only_once_published(
    world: dict[str, Any], updates_now: list[Any]
) -> None:
    _enter_hidden_result(world)
    tournament_update(tournament=world["hidden"], actor=world["organiser"], published=True)
    rated_yb = _ratings()
    tournament_update(tournament=world["hidden"], actor=world["organiser"], published=False)
    game_result_record(game=world["hidden_game"], actor=world["organiser"], winner="RG")
    assert _ratings() == world["before"]
    tournament_update(tournament=world["hidden"], actor=world["organiser"], published=True)
    assert _ratings() not in (world["before"], rated_yb)
    dina = PersonRating.objects.get(person=world["people"][3])
    assert (dina.games, dina.wins) == (2, 1)  # Dina won it now


def test_a_draft_rounds_game_does_not_count(world: dict[str, Any]) -> None:
    """The result service refuses a draft round's result; one stored anyway (an import,
    an edit outside the services) is not rated either."""
    event = world["hidden_game"].round.tournament
    Tournament.objects.filter(pk=event.pk).update(published=True)
    ratings_recompute()
    rated = _ratings()
    draft = RoundFactory(tournament=event, number=2, status=Round.Status.DRAFT)
    game = GameFactory(
        round=draft,
        pair_yb=world["hidden_game"].pair_yb,
        pair_rg=world["hidden_game"].pair_rg,
        winner="RG",
        result_source=Game.ResultSource.TYPED,
        status=Game.Status.FINISHED,
    )
    assert ratings_update_from_game(game_id=game.pk) == 0
    assert ratings_recompute() == 1  # the first event's game only
    assert _ratings() == rated
    assert not PersonRatingChange.objects.filter(game=game).exists()


def test_other_changes_and_events_without_results_queue_no_recomputation(
    world: dict[str, Any], updates_now: list[Any]
) -> None:
    # Published without a result: nothing of it is rated, nothing to redo.
    tournament_update(tournament=world["hidden"], actor=world["organiser"], published=True)
    assert updates_now == []
    # A setting that does not touch which games count or their order.
    _enter_hidden_result(world)
    updates_now.clear()
    tournament_update(tournament=world["hidden"], actor=world["organiser"], venue="Aarhus")
    assert updates_now == []
    # Moving a published event with results to another day moves its games in the order.
    tournament_update(
        tournament=world["hidden"], actor=world["organiser"], date=datetime.date(2026, 1, 1)
    )
    assert updates_now == [None]
    moved = _ratings()
    ratings_recompute()
    assert _ratings() == moved
