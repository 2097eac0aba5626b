"""The record of moves the engine refused at a table (incident history)."""

from __future__ import annotations

import logging

from django.db import DatabaseError, transaction

from games.models import Game
from judging.models import MoveRefusal

logger = logging.getLogger(__name__)


def refusal_record(*, game: Game, text: str, rule: str, message_en: str, message_da: str) -> None:
    """Store one refused entry; called by the move log after it refused a submission.

    ``text`` is the entry as the table sent it, read as text where it entered
    (``games.serializers.EntrySubmitSerializer``: a number is the text it spells).
    Runs outside the refused submission's transaction (which rolled back),
    and never fails the caller: the table's answer matters more.
    """
    seat = text.strip()[:1].upper() if text.strip()[:2].upper() in ("Y ", "R ", "B ", "G ") else ""
    if not seat:
        seat = _to_move(game)
    try:
        with transaction.atomic():
            _store(game, text, seat, rule, message_en, message_da)
    except DatabaseError:
        logger.warning("could not record a refused entry for game %s", game.pk)


def _store(game: Game, raw: str, seat: str, rule: str, message_en: str, message_da: str) -> None:
    pair = None
    if seat in ("Y", "B"):
        pair = game.pair_yb_id
    elif seat in ("R", "G"):
        pair = game.pair_rg_id
    MoveRefusal.objects.create(
        tournament_id=game.round.tournament_id,
        game=game,
        seat=seat,
        pair_id=pair,
        text=raw[:120],
        rule=(rule or "")[:4],
        message_en=message_en[:500],
        message_da=message_da[:500],
    )


def _to_move(game: Game) -> str:
    from games.selectors import game_log

    return game_log(game=game).replay.state.to_move or ""
