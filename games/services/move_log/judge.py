"""A judge's entries appended to the log (the ruling itself is judging's)."""

from __future__ import annotations

import uuid

from django.db import transaction

from games.engine import replay
from games.models import Game, MoveEntry, ResultConfirmation
from games.selectors import (
    LogEntry,
    build_log_view,
    game_log,
    game_record,
)
from games.services.move_log._common import (
    NewEntry,
    chained,
    clock_stop_on_win,
    illegal,
    lock_game,
)


def judge_entries_append(*, game: Game, texts: list[str]) -> list[LogEntry]:
    """Append judge entries (``! …``, docs/judging.md) after the engine accepts the record.

    Who may rule is checked by the caller (judging.services.rulings). The
    whole record with the new entries is replayed first; a refusal (422,
    code = the rule) stores nothing. Confirmations given for the old log are
    dropped; a ruling that decides the game stops the clock.
    """
    with transaction.atomic():
        game = lock_game(game)
        view = game_log(game=game)
        moves = view.texts
        result = replay(game_record(game=game, moves=[*moves, *texts]))
        err = result.first_error
        if err is not None:
            raise illegal(err.rule, err.message, err.message_da, move=err.move, index=err.index)
        entries = [
            NewEntry(
                text=text,
                client_id=f"judge-{uuid.uuid4().hex}",
                events=[e.to_json() for e in events],
                source=MoveEntry.Source.JUDGE,
            )
            for text, events in zip(texts, result.events[len(moves) :], strict=True)
        ]
        rows = chained(game, prev_hash=view.last_hash, first_seq=view.seq + 1, entries=entries)
        for row in rows:
            row.save(force_insert=True)
        ResultConfirmation.objects.filter(game=game).delete()
        new = [LogEntry.of(r) for r in rows]
        build_log_view(game=game, entries=new, after=view, result=result)
        if result.winner:
            clock_stop_on_win(game)
        return new
