"""Helpers for the tournament tests: a field of pairs and playing a round."""

from __future__ import annotations

from collections.abc import Callable

from games.models import Game
from games.services.results import game_result_record
from tests.factories import PairFactory, TournamentFactory, organiser_of
from tournament.models import Pair, Round, Tournament
from tournament.services.pairing import round_pair, round_publish, round_start


def event_with_pairs(n: int, **settings: object) -> tuple[Tournament, object, list[Pair]]:
    tournament = TournamentFactory(**settings)
    organiser = organiser_of(tournament)
    pairs = [PairFactory(tournament=tournament, start_number=k + 1) for k in range(n)]
    return tournament, organiser, pairs


def play(round_: Round, organiser: object, winner_of: Callable[[Game], str] | None = None) -> Round:
    """Publish, start and finish every game (lower start number wins by default)."""
    if round_.status == Round.Status.DRAFT:
        round_publish(round=round_, actor=organiser)
    if round_.status == Round.Status.PUBLISHED:
        round_start(round=round_, actor=organiser)
    for game in round_.games.select_related("pair_yb", "pair_rg"):
        if winner_of is not None:
            winner = winner_of(game)
        else:
            winner = "YB" if game.pair_yb.start_number < game.pair_rg.start_number else "RG"
        game_result_record(game=game, actor=organiser, winner=winner)
    round_.refresh_from_db()
    return round_


def pair_and_play(tournament: Tournament, organiser: object, **kwargs: object) -> Round:
    return play(round_pair(tournament=tournament, actor=organiser, **kwargs), organiser)
