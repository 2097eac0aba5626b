"""Telling a table's viewers and the hall that a table changed (pushed after the commit).

Every change to a table's log (an entry, a judge's entry, a take-back), its
clock and its result calls ``game_changed``: the table's live view and the
event's hall screen fetch their state again (config/push_channels.py).
"""

from __future__ import annotations

from core.push.broker import publish_on_commit
from games.models import Game


def game_changed(*, game: Game, kind: str) -> None:
    """Push ``kind`` (move, clock, result) to the table's channel and the event's, on commit."""
    publish_on_commit(f"table:{game.pk}", kind)
    publish_on_commit(f"event:{game.round.tournament_id}", "tables")
