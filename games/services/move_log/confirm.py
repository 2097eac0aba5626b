"""The two pairs confirm the engine's result; the second confirmation records it."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import Conflict
from core.live_copy import changed_on_commit, table_scope
from games.models import Game, ResultConfirmation
from games.selectors import (
    LogView,
    TableState,
    game_log,
    short_hash,
)
from games.services.move_log._common import (
    answer_state,
    check_writable,
    lock_game,
)


def game_result_confirm(*, game: Game, pair_side: str, client_id: str) -> TableState:
    """One player of a pair confirms the engine's winner; both pairs → the result counts."""
    with transaction.atomic():
        game = lock_game(game)
        if game.status == Game.Status.FINISHED and game.result_source == Game.ResultSource.LOG:
            return answer_state(game)
        check_writable(game)
        view = game_log(game=game)
        winner = view.winner
        if not winner:
            raise Conflict(
                "no_winner_yet",
                _(
                    "The game is not over yet: a result can only be confirmed once a side has "
                    "locked all %(pawns)d pawns."
                ),
                params={"pawns": view.replay.state.ruleset.pawns_per_side},
            )
        _confirmation, created = ResultConfirmation.objects.get_or_create(
            game=game,
            pair_side=pair_side,
            defaults={"client_id": client_id, "seq": view.seq, "log_hash": view.last_hash},
        )
        if created:  # the state shows the confirmations: its polled copy is retired
            changed_on_commit(table_scope(game.pk))
        if ResultConfirmation.objects.filter(game=game, log_hash=view.last_hash).count() == 2:
            record_result(game, view, winner)
        return answer_state(game)


def record_result(game: Game, view: LogView, winner: str) -> None:
    from games.services.results import game_result_record

    position = view.replay.position
    teams = view.replay.state.ruleset.teams
    locked = {team: sum(len(position.locked(s)) for s in seats) for team, seats in teams.items()}
    game_result_record(
        game=game,
        actor=None,
        winner=winner,
        source="log",
        locked_yb=locked["YB"],
        locked_rg=locked["RG"],
        distance_yb=view.distance["YB"],
        distance_rg=view.distance["RG"],
        timed_out=False,
        note=f"move log #{view.seq} {short_hash(view.last_hash)}",
    )
    Game.objects.filter(pk=game.pk).exclude(status=Game.Status.FINISHED).update(
        status=Game.Status.FINISHED, finished_at=timezone.now()
    )
    game.refresh_from_db()
