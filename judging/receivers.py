"""judging listens to the games app (``games.signals``): alerts, incidents, freshness."""

from __future__ import annotations

from typing import Any

from games.models import Game
from games.selectors import ReplayRuling, TableRuling
from games.signals import (
    clock_changed,
    clock_mark_reached,
    hall_calls_wanted,
    move_refused,
    replay_rulings_wanted,
    table_rulings_wanted,
)
from judging.models import Alert
from judging.selectors import round_open_calls
from judging.selectors_records import replay_rulings, table_rulings
from judging.services.alerts import alert_raise_if_due
from judging.services.freshness import judging_changed
from judging.services.incidents import refusal_record


def _on_clock_changed(sender: Any, *, tournament_id: int, **kwargs: Any) -> None:
    judging_changed(tournament_id=tournament_id)


def _on_clock_mark_reached(sender: Any, *, game_id: int, kind: str, **kwargs: Any) -> Alert | None:
    return alert_raise_if_due(game_id=game_id, kind=kind)


def _on_move_refused(
    sender: Any,
    *,
    game: Game,
    text: str,
    rule: str,
    message_en: str,
    message_da: str,
    **kwargs: Any,
) -> None:
    refusal_record(game=game, text=text, rule=rule, message_en=message_en, message_da=message_da)


def _on_hall_calls_wanted(sender: Any, *, round_id: int, **kwargs: Any) -> dict[int, str]:
    return round_open_calls(round_id=round_id)


def _on_table_rulings_wanted(sender: Any, *, game: Game, **kwargs: Any) -> list[TableRuling]:
    return table_rulings(game=game)


def _on_replay_rulings_wanted(sender: Any, *, game: Game, **kwargs: Any) -> list[ReplayRuling]:
    return replay_rulings(game=game)


def connect() -> None:
    """Connect the receivers once (idempotent through ``dispatch_uid``)."""
    clock_changed.connect(_on_clock_changed, dispatch_uid="judging.clock_changed")
    clock_mark_reached.connect(_on_clock_mark_reached, dispatch_uid="judging.clock_mark_reached")
    move_refused.connect(_on_move_refused, dispatch_uid="judging.move_refused")
    hall_calls_wanted.connect(_on_hall_calls_wanted, dispatch_uid="judging.hall_calls_wanted")
    table_rulings_wanted.connect(
        _on_table_rulings_wanted, dispatch_uid="judging.table_rulings_wanted"
    )
    replay_rulings_wanted.connect(
        _on_replay_rulings_wanted, dispatch_uid="judging.replay_rulings_wanted"
    )
