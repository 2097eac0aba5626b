"""Telling a table's viewers and the hall that a table changed (pushed after the commit).

Every change to a table's log (an entry, a judge's entry, a take-back), its
clock and its result calls ``game_changed``: the table's live view and the
event's hall screen fetch their state again (config/push_channels.py), from
a shared copy made after the change (``config.live_poll``).
"""

from __future__ import annotations

from core.live_copy import table_changed_on_commit
from core.push.broker import publish_on_commit
from games.models import Game


def game_changed(*, game: Game, kind: str) -> None:
    """Push ``kind`` (move, clock, result) to the table's channel and the event's, on commit.

    First the polled copies of the table's state and of the hall are retired
    (``core.live_copy``): a viewer told of the change and polling at once
    must find the new answer, not the copy from before it."""
    table_changed_on_commit(game_id=game.pk, tournament_id=game.round.tournament_id)
    publish_on_commit((f"table:{game.pk}", kind), (f"event:{game.round.tournament_id}", "tables"))
