"""Demo data: complete games played by the self-play engine."""

from __future__ import annotations

import random
from typing import Any

from django.db import transaction

from games.engine import (
    get_ruleset,
    replay,
    selfplay_game,
)
from games.models import Game, MoveEntry
from games.selectors import game_log
from games.services.move_log._common import lock_game
from games.services.move_log.confirm import record_result
from games.services.move_log.record import store_record
from tournament.models import Tournament


def demo_fill_logs(*, tournament: Tournament, seed: int = 0) -> int:
    """Give the demo tournament's games move logs; returns how many games got one.

    Games with a result but no log get a complete self-play game won by the
    same pair where one of up to 64 seeds gives it (otherwise the result is taken from
    the self-play game); games of the round in progress get the first moves
    of a self-play game.
    """
    rng = random.Random(seed)
    filled = 0
    ruleset = get_ruleset(tournament.ruleset)
    games = Game.objects.select_related("round__tournament").filter(round__tournament=tournament)
    for game in games.order_by("round__number", "table_number"):
        if MoveEntry.objects.filter(game=game).exists():
            continue
        result_from_log = False
        if game.winner:
            moves, result_from_log = _demo_complete(game, rng, ruleset)
        elif game.round.status == game.round.Status.IN_PROGRESS:
            record = selfplay_game(rng.randrange(1 << 30), ruleset, first_dealer=game.first_dealer)
            moves = record["moves"][: rng.randrange(8, min(80, len(record["moves"]) - 1))]
        else:
            continue
        with transaction.atomic():
            locked_game = lock_game(game)
            store_record(locked_game, moves, MoveEntry.Source.DEMO)
            if result_from_log:
                view = game_log(game=locked_game)
                if view.winner:  # a complete self-play game always has one
                    record_result(locked_game, view, view.winner)
        filled += 1
    return filled


def _demo_complete(game: Game, rng: random.Random, ruleset: Any) -> tuple[list[str], bool]:
    """A self-play game won by the game's winner if one of a few seeds gives one.

    Otherwise the last one tried, and True: the log is the truth, so the
    result must then follow it.
    """
    moves: list[str] = []
    # Each seed wins for either side about half the time: 64 seeds all
    # failing is a 2**-64 chance, so the last-resort branch never runs in
    # a closed round (where only an organiser may record the result).
    for _attempt in range(64):
        record = selfplay_game(rng.randrange(1 << 30), ruleset, first_dealer=game.first_dealer)
        moves = list(record["moves"])
        if replay(record).winner == game.winner:
            return moves, False
    return moves, True
