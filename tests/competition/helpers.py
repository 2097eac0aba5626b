"""Helpers for the tournament tests: a field of pairs and playing a round."""

from __future__ import annotations

from collections.abc import Callable

from competition.services.pairing import round_close, round_pair, round_publish, round_start
from games.models import Game
from games.services.results import game_result_record
from tests.factories import PairFactory, TournamentFactory, organiser_of
from tournament.models import Pair, Round, Tournament


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


# Round 1 by seed: 1–4, 2–5, 3–6; the top half wins on time. The losers'
# (distance left, locked) against the winners': #4 40/3 vs 10/5, #5 50/4 vs
# 20/5, #6 90/5 vs 10/5. Distance differences −30, −30, −80; locked-pawn
# differences −2, −1, 0.
RESULTS = {4: ((40, 3), (10, 5)), 5: ((50, 4), (20, 5)), 6: ((90, 5), (10, 5))}


def tied_at_the_cut(tiebreaks=("distance_diff",), pairs=6, results=RESULTS):
    """After one round, top 4 to the knockout: #4 and #5 share rank 4= (by default)."""
    tournament, organiser, field = event_with_pairs(
        pairs, knockout_size=4, swiss_rounds=1, tiebreaks=list(tiebreaks)
    )
    for pair in field:
        Pair.objects.filter(pk=pair.pk).update(seed=pair.start_number)
    round_ = round_pair(tournament=tournament, actor=organiser)
    round_publish(round=round_, actor=organiser)
    round_start(round=round_, actor=organiser)
    for game in round_.games.select_related("pair_yb", "pair_rg"):
        loser_yb = game.pair_yb.start_number > game.pair_rg.start_number
        loser = game.pair_yb if loser_yb else game.pair_rg
        (lose_d, lose_l), (win_d, win_l) = results[loser.start_number]
        game_result_record(
            game=game, actor=organiser, winner="RG" if loser_yb else "YB", timed_out=True,
            distance_yb=lose_d if loser_yb else win_d, distance_rg=win_d if loser_yb else lose_d,
            locked_yb=lose_l if loser_yb else win_l, locked_rg=win_l if loser_yb else lose_l,
        )  # fmt: skip
    round_close(round=round_, actor=organiser)
    tournament.refresh_from_db()
    return tournament, organiser, {p.start_number: p for p in field}
