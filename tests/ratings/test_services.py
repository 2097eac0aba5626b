"""Ratings kept in step with results: incremental updates equal a recomputation."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.management import call_command

from games.services.results import game_result_clear, game_result_record
from ratings.models import PairRating, PairRatingChange, PersonRating, PersonRatingChange
from ratings.services import ratings_recompute

pytestmark = pytest.mark.django_db(transaction=True)

D1, D2, D3 = datetime.date(2026, 1, 10), datetime.date(2026, 2, 14), datetime.date(2026, 3, 21)


def _snapshot() -> dict[str, Any]:
    def rows(qs: Any, *fields: str) -> list[tuple[Any, ...]]:
        return [
            tuple(round(v, 9) if isinstance(v, float) else v for v in r)
            for r in qs.order_by(*fields[:2]).values_list(*fields)
        ]

    return {
        "people": rows(PersonRating.objects, "person_id", "mu", "sigma", "games", "wins"),
        "pairs": rows(
            PairRating.objects, "person_low_id", "person_high_id", "mu", "sigma", "games", "wins"
        ),
        "person_history": rows(
            PersonRatingChange.objects,
            "key",
            "person_id",
            "game_id",
            "won",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
        ),
        "pair_history": rows(
            PairRatingChange.objects,
            "key",
            "person_low_id",
            "person_high_id",
            "game_id",
            "won",
            "mu_after",
            "sigma_after",
        ),
    }


def _record(make_game: Any, game: Any, winner: str) -> None:
    game_result_record(game=game, actor=make_game.organiser(game), winner=winner)


def test_a_recorded_result_updates_the_ratings_after_commit(
    people: list[Any], make_game: Any, updates_now: list[int]
) -> None:
    anna, bo, carl, dina = people
    game = make_game(D1, (anna, bo), (carl, dina))
    _record(make_game, game, "YB")
    assert updates_now == [game.pk]
    assert PersonRating.objects.get(person=anna).mu == pytest.approx(26.964294621803063)
    assert PersonRating.objects.get(person=carl).mu == pytest.approx(23.035705378196937)
    assert PairRating.objects.get(person_low=anna, person_high=bo).games == 1
    assert PersonRatingChange.objects.filter(game=game).count() == 4


def test_a_corrected_result_early_in_the_season_equals_a_recomputation(
    people: list[Any], make_game: Any, updates_now: list[int]
) -> None:
    anna, bo, carl, dina = people
    first = make_game(D1, (anna, bo), (carl, dina))
    second = make_game(D2, (anna, carl), (bo, dina))
    third = make_game(D3, (anna, dina), (bo, carl))
    fourth = make_game(D3, (anna, dina), (bo, carl), number=2)
    for game, winner in ((first, "YB"), (second, "RG"), (third, "YB"), (fourth, "RG")):
        _record(make_game, game, winner)
    before = _snapshot()
    _record(make_game, first, "RG")  # corrected: Carl and Dina won the first game
    incremental = _snapshot()
    assert incremental != before
    ratings_recompute()
    assert _snapshot() == incremental
    # A cleared result is no longer rated, and again equals a recomputation.
    game_result_clear(game=second, actor=make_game.organiser(second), reason="wrong table")
    cleared = _snapshot()
    assert not PersonRatingChange.objects.filter(game=second).exists()
    assert PersonRating.objects.get(person=anna).games == 3
    ratings_recompute()
    assert _snapshot() == cleared


def test_clearing_a_pairs_only_game_removes_its_rating(
    people: list[Any], make_game: Any, updates_now: list[int]
) -> None:
    anna, bo, carl, dina = people
    game = make_game(D1, (anna, bo), (carl, dina))
    _record(make_game, game, "YB")
    game_result_clear(game=game, actor=make_game.organiser(game), reason="never played")
    assert not PersonRating.objects.exists() and not PairRating.objects.exists()


def test_players_without_a_person_are_not_rated(
    make_game: Any, people: list[Any], updates_now: list[int]
) -> None:
    anna, bo, carl, dina = people
    game = make_game(D1, (anna, bo), (carl, dina))
    player = game.pair_rg.player_1
    player.person = None
    player.save()
    _record(make_game, game, "YB")
    assert not PersonRating.objects.exists()


def test_the_command_recomputes_from_scratch_and_is_idempotent(
    people: list[Any], make_game: Any, updates_now: list[int]
) -> None:
    anna, bo, carl, dina = people
    _record(make_game, make_game(D1, (anna, bo), (carl, dina)), "YB")
    _record(make_game, make_game(D2, (anna, carl), (bo, dina)), "YB")
    once = _snapshot()
    PersonRating.objects.all().delete()  # as if an update had been lost
    call_command("ratings_recompute", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert _snapshot() == once
    call_command("ratings_recompute", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert _snapshot() == once


def test_merging_two_people_rates_their_games_as_one_and_undoing_splits_them(
    people: list[Any], make_game: Any, updates_now: list[int]
) -> None:
    from people.models import PersonAudit
    from people.services import person_merge, person_merge_undo
    from tests.factories import PersonFactory

    anna, bo, carl, dina = people
    anna_again = PersonFactory(name="Anna")  # registered twice by mistake
    _record(make_game, make_game(D1, (anna, bo), (carl, dina)), "YB")
    _record(make_game, make_game(D2, (anna_again, carl), (bo, dina)), "YB")
    assert PersonRating.objects.get(person=anna).games == 1
    separate = _snapshot()
    merge = person_merge(survivor=anna, duplicate=anna_again, actor=None)
    assert PersonRating.objects.get(person=anna).games == 2
    assert not PersonRating.objects.filter(person=anna_again).exists()
    merged = _snapshot()
    ratings_recompute()
    assert _snapshot() == merged
    person_merge_undo(merge=PersonAudit.objects.get(pk=merge.pk), actor=None)
    assert _snapshot() == separate
