"""The per-table move log: append, take back, confirm the result, import, export.

Every write runs in one transaction holding the game's row lock (PostgreSQL
``SELECT … FOR UPDATE``; SQLite serialises writers with ``BEGIN IMMEDIATE``),
and the partial unique constraint on active ``(game, seq)`` backs it up. The
order of checks matters: a retried ``client_id`` is recognised *before* the
sequence check, so a device whose answer was lost gets its entry back instead
of a stale-sequence refusal.
"""

from games.services.move_log._common import ANSWER_ENTRIES, SubmitResult, entry_read
from games.services.move_log.confirm import game_result_confirm
from games.services.move_log.demo import demo_fill_logs
from games.services.move_log.judge import judge_entries_append
from games.services.move_log.record import game_record_import
from games.services.move_log.submit import MovePreview, PawnChange, move_preview, move_submit
from games.services.move_log.take_back import move_take_back

__all__ = [
    "ANSWER_ENTRIES",
    "MovePreview",
    "PawnChange",
    "SubmitResult",
    "demo_fill_logs",
    "entry_read",
    "game_record_import",
    "game_result_confirm",
    "judge_entries_append",
    "move_preview",
    "move_submit",
    "move_take_back",
]
