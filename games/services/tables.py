"""A round's tables as games: created when a round is paired, started with the round.

The tournament app decides who plays whom at which table (pairing, the
knockout bracket); the games app owns the ``Game`` rows and their clocks.
Pairing and the bracket call these services instead of writing the rows.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q

from games.models import Game
from games.services.clock import clock_started
from tournament.models import Round


@dataclass(frozen=True)
class TablePlan:
    """One table of a paired round: who sits where, who deals first."""

    table_number: int
    pair_yb_id: int
    pair_rg_id: int
    first_dealer: str
    bracket_slot: int | None = None


def round_games_create(*, round_: Round, tables: Iterable[TablePlan]) -> list[Game]:
    """Create the games of ``round_``, one per table (in one statement)."""
    return Game.objects.bulk_create(
        [
            Game(
                round=round_,
                table_number=t.table_number,
                pair_yb_id=t.pair_yb_id,
                pair_rg_id=t.pair_rg_id,
                first_dealer=t.first_dealer,
                bracket_slot=t.bracket_slot,
            )
            for t in tables
        ]
    )


def round_games_started(*, round_: Round) -> bool:
    """Whether any game of ``round_`` has started, has a result or is no longer scheduled."""
    return round_.games.filter(
        Q(started_at__isnull=False) | ~Q(winner="") | ~Q(status=Game.Status.SCHEDULED)
    ).exists()


def round_games_start(*, round_: Round, at: datetime.datetime | None) -> None:
    """Start every scheduled game of ``round_`` at ``at`` and their clocks (after commit)."""
    round_.games.filter(started_at__isnull=True).update(started_at=at)
    round_.games.filter(status=Game.Status.SCHEDULED).update(status=Game.Status.IN_PROGRESS)
    # Every table's clock starts now; its alerts are scheduled after commit.
    clock_started(games=list(round_.games.filter(status=Game.Status.IN_PROGRESS)))
