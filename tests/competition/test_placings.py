"""A tournament's final placings: the knockout decides the top, Swiss the rest."""

from __future__ import annotations

import pytest

from competition.placings import event_placings
from competition.selectors import standings_for_tournament
from competition.services.knockout import knockout_create
from competition.services.pairing import round_close
from tests.competition.helpers import event_with_pairs, pair_and_play, play
from tests.factories import TournamentFactory, organiser_of
from tests.season.conftest import PAIRS, knockout_event

pytestmark = pytest.mark.django_db


def names(placings):
    return [(p.place, p.pair.player_1.name) for p in placings.places]


def test_knockout_places_follow_the_final_and_the_third_place_game():
    organiser = organiser_of(TournamentFactory(), "org")

    # Upsets: the worse seed wins every semi-final, the better one the final
    # and the third-place game.
    def winner_of(game):
        worse_yb = game.pair_yb.seed > game.pair_rg.seed
        upset = game.round.bracket_matches == 2
        return "YB" if worse_yb == upset else "RG"

    event = knockout_event(organiser, PAIRS[:4], winner_of=winner_of)
    placings = event_placings(tournament=event)
    assert placings.finished and placings.started
    # Semis 1-4 and 2-3 go to seeds 4 and 3; the final to seed 3, third place to seed 1.
    assert names(placings) == [
        (1, "Kirsten Pedersen"),
        (2, "Hanne Jensen"),
        (3, "Mette Hansen"),
        (4, "Anne Larsen"),
    ]


def test_knockout_winners_then_losers_then_the_rest_in_swiss_order():
    tournament, organiser, _pairs = event_with_pairs(6, swiss_rounds=2, knockout_size=4)
    for number in range(2):
        round_ = pair_and_play(tournament, organiser, random_seed=1000 + number)
        round_close(round=round_, actor=organiser)
    swiss = [row.pair_id for row in standings_for_tournament(tournament=tournament)]
    semis = knockout_create(tournament=tournament, actor=organiser)
    play(semis, organiser)  # results in; the final is not made yet
    games = list(semis.games.all())
    winners = sorted((g.winner_pair.pk for g in games), key=swiss.index)
    losers = sorted(
        (g.pair_rg_id if g.winner == "YB" else g.pair_yb_id for g in games), key=swiss.index
    )
    rest = [pk for pk in swiss if pk not in winners + losers]
    placings = event_placings(tournament=tournament)
    assert not placings.finished
    assert [p.pair.pk for p in placings.places] == winners + losers + rest
    # Knockout places are distinct; below them Swiss ties may share a place.
    assert [p.place for p in placings.places][:4] == [1, 2, 3, 4]
    assert all(p.place >= 5 for p in placings.places[4:])


def test_a_tournament_without_results_has_no_placings():
    tournament, _organiser, _pairs = event_with_pairs(4)
    placings = event_placings(tournament=tournament)
    assert placings.places == [] and not placings.started and not placings.finished


def test_pairs_fully_tied_in_the_standings_share_their_place():
    tournament, organiser, _pairs = event_with_pairs(4, swiss_rounds=1)
    round_close(round=pair_and_play(tournament, organiser), actor=organiser)
    placings = event_placings(tournament=tournament)
    assert placings.finished
    assert [(p.place, p.shared) for p in placings.places] == [
        (1, True),
        (1, True),
        (3, True),
        (3, True),
    ]
