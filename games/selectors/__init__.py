"""Reads of the games app, by subdomain; every name is importable from ``games.selectors``.

- ``log``: the move log's hash chain, entries and replay (``game_log``, ``LogView``)
- ``state``: what a table page, a live view and an offline device show (``game_state``)
- ``hall``: every table of a round at a glance (``hall_tables``)
- ``results``: finished games across events, for ratings and statistics
- ``replay``: every position of a finished game, for its public replay (``game_replay``)

The selectors only read. The caches they fill (replays, hall summaries) are
written by ``games.selectors.cache``.
"""

from games.selectors.cache import HALL_CACHE_SECONDS, LogKey
from games.selectors.hall import (
    HallClock,
    HallTable,
    hall_round,
    hall_tables,
    hall_urgency,
    round_games,
)
from games.selectors.log import (
    LIVE_TAIL,
    SHORT_HASH_LENGTH,
    ChainVerdict,
    LogEntry,
    LogSummary,
    LogView,
    active_entries,
    build_log_view,
    entry_hash,
    game_log,
    game_players,
    game_record,
    game_record_export,
    genesis_hash,
    head_columns_sql,
    locked_by_seat,
    log_cache,
    log_head,
    log_origin,
    move_log_verify,
    short_hash,
    view_summary,
)
from games.selectors.replay import (
    GameReplay,
    PlacedRulings,
    ReplayChoice,
    ReplayFrame,
    ReplayRuling,
    ReplayStop,
)
from games.selectors.results import RESULT_ROW_FIELDS, move_logs, results_with_people
from games.selectors.state import (
    OFFLINE_MIRRORED_RULESET,
    GameResult,
    TableRuling,
    TableState,
    game_state,
    table_rules,
    table_rulings,
)

__all__ = [
    "HALL_CACHE_SECONDS",
    "LIVE_TAIL",
    "OFFLINE_MIRRORED_RULESET",
    "RESULT_ROW_FIELDS",
    "SHORT_HASH_LENGTH",
    "ChainVerdict",
    "GameReplay",
    "GameResult",
    "HallClock",
    "HallTable",
    "LogEntry",
    "LogKey",
    "LogSummary",
    "LogView",
    "PlacedRulings",
    "ReplayChoice",
    "ReplayFrame",
    "ReplayRuling",
    "ReplayStop",
    "TableRuling",
    "TableState",
    "active_entries",
    "build_log_view",
    "entry_hash",
    "game_log",
    "game_players",
    "game_record",
    "game_record_export",
    "game_state",
    "genesis_hash",
    "hall_round",
    "hall_tables",
    "hall_urgency",
    "head_columns_sql",
    "locked_by_seat",
    "log_cache",
    "log_head",
    "log_origin",
    "move_log_verify",
    "move_logs",
    "results_with_people",
    "round_games",
    "short_hash",
    "table_rules",
    "table_rulings",
    "view_summary",
]
