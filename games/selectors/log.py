"""Reads of the move log: its hash chain, its entries and the replay the engine makes of them.

The log is the truth: a game's state is ``replay()`` of its active entries.
Replays are cached (``games.selectors.cache``) keyed by
``(game, seq, last hash)``; the hash chains every entry, so a key names
exactly one log and a cached value can never be stale.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import QuerySet

from games.engine import (
    ReplayResult,
    entry_marks,
    index_effects,
    remaining_distance,
    replay,
)
from games.engine.judge import JUDGE_PREFIX
from games.models import Game, MoveEntry
from games.selectors.cache import LogCache, LogKey

SHORT_HASH_LENGTH = 8
# The public live view shows (and polls) the last entries only.
LIVE_TAIL = 20
# Games whose newest replay a web process keeps (a round has at most a few hundred).
_CACHE_SIZE = 512


def genesis_hash(game_id: int) -> str:
    """The ``prev_hash`` of a game's first entry."""
    return hashlib.sha256(str(game_id).encode()).hexdigest()


def entry_hash(*, prev_hash: str, text: str, seq: int) -> str:
    """The chained hash of one entry: sha256(prev_hash + canonical text + seq)."""
    return hashlib.sha256(f"{prev_hash}{text}{seq}".encode()).hexdigest()


def short_hash(full: str) -> str:
    return full[:SHORT_HASH_LENGTH]


def active_entries(*, game: Game) -> QuerySet[MoveEntry]:
    return MoveEntry.objects.filter(game=game, withdrawn_at__isnull=True).order_by("seq")


def game_players(*, game: Game) -> dict[str, str]:
    """Seat → player name, in the ruleset's seat order: a side's seats are its
    entrant's players 1 and 2 (Yellow/Blue the YB pair's, likewise R/G).

    A singles game (DUO) has one seat per side (Y and R): each entrant's player.
    """
    variant = game.round.tournament.variant
    entrants = {"YB": game.pair_yb, "RG": game.pair_rg}
    players = {}
    for side, seats in variant.teams.items():
        pair = entrants[side]
        for seat, player in zip(seats, (pair.player_1, pair.player_2), strict=False):
            players[seat] = player.name if player else ""
    return {seat: players[seat] for seat in variant.seats}


def game_record(*, game: Game, moves: list[str], players: dict[str, str] | None = None) -> dict:
    """A NOTATION.md game record of ``game`` with the given entries."""
    record: dict[str, Any] = {
        "ruleset": game.round.tournament.ruleset,
        "first_dealer": game.first_dealer,
        "moves": moves,
    }
    if players is not None:
        record["players"] = players
    return record


def game_record_export(*, game: Game) -> dict[str, Any]:
    """The game's active log as a NOTATION.md game record with the players' names."""
    moves = list(active_entries(game=game).values_list("text", flat=True))
    return game_record(game=game, moves=moves, players=game_players(game=game))


def log_origin(game: Game) -> str:
    # The hash chain covers the entries, not the frame they are replayed in.
    return f"{game.round.tournament.ruleset}-{game.first_dealer}"


EntryRow = tuple[int, str, str, str, tuple[Any, ...], str]
"""An entry as a replayed view keeps it: seq, seat, text, hash, events, created_at."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One active entry of a game's log, as the API shows it (``to_json``).

    ``events`` (the hits and locks it made, as the engine gives them) is a
    tuple and ``created_at`` the ISO time it was stored.
    """

    seq: int
    seat: str
    text: str
    hash: str
    events: tuple[Any, ...]
    created_at: str

    @property
    def short_hash(self) -> str:
        return short_hash(self.hash)

    @property
    def row(self) -> EntryRow:
        return (self.seq, self.seat, self.text, self.hash, self.events, self.created_at)

    @classmethod
    def of(cls, entry: MoveEntry | dict[str, Any]) -> LogEntry:
        """The entry of a stored row, or of its ``values()`` (``_ROW_FIELDS``)."""
        row = (
            entry
            if isinstance(entry, dict)
            else {
                "seq": entry.seq,
                "seat": entry.seat,
                "text": entry.text,
                "hash": entry.hash,
                "events": entry.events,
                "created_at": entry.created_at,
            }
        )
        created: datetime | str = row["created_at"]
        return cls(
            seq=row["seq"],
            seat=row["seat"],
            text=row["text"],
            hash=row["hash"],
            events=tuple(row["events"] or ()),
            created_at=created.isoformat() if isinstance(created, datetime) else created,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "seat": self.seat,
            "text": self.text,
            "hash": self.hash,
            "short_hash": self.short_hash,
            "events": self.events,
            "created_at": self.created_at,
        }


class LogView:
    """The replayed log of one game at one point of its hash chain.

    The legal moves of the seat to move are computed on first use (a 7 can
    have hundreds of splits): a submission does not need them, the table
    page's next read does.

    The entries are kept as plain tuples (``EntryRow``) and handed out as
    ``LogEntry`` values when read (``entries``, ``entries_tail``): a process
    keeps up to 512 views of a hundred entries and more, and CPython's
    collector stops looking at a tuple of strings and numbers after one
    look, while it walks every dataclass instance at every full collection
    (docs/decisions.md, "Typed log entries, compact in the view").
    """

    __slots__ = (
        "_effects",
        "_legal",
        "_rows",
        "distance",
        "game_id",
        "last_hash",
        "origin",
        "replay",
        "seq",
    )

    def __init__(
        self,
        *,
        game_id: int,
        origin: str,
        seq: int,
        last_hash: str,
        replay: ReplayResult,
        rows: tuple[EntryRow, ...],
        distance: dict[str, int],
    ) -> None:
        self.game_id = game_id
        self.origin = origin
        self.seq = seq
        self.last_hash = last_hash
        self.replay = replay
        self._rows = rows
        self.distance = distance
        self._legal: dict[str, list[str]] | None = None
        self._effects: dict[str, Any] | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self._effects = None  # a view pickled before effects existed has none
        for name, value in data.items():
            setattr(self, name, value)

    @property
    def key(self) -> LogKey:
        return (self.game_id, self.origin, self.seq, self.last_hash)

    @property
    def winner(self) -> str | None:
        return self.replay.winner

    @property
    def entries(self) -> tuple[LogEntry, ...]:
        """Every active entry in order."""
        return tuple(LogEntry(*row) for row in self._rows)

    def entries_tail(self, count: int) -> tuple[LogEntry, ...]:
        """The last ``count`` entries (every entry for 0)."""
        rows = self._rows[-count:] if count else self._rows
        return tuple(LogEntry(*row) for row in rows)

    @property
    def texts(self) -> list[str]:
        """The active entries' texts in order (what a replay of the log reads)."""
        return [row[2] for row in self._rows]

    @property
    def legal_entries(self) -> dict[str, list[str]]:
        if self._legal is None:
            self._fill_legal()
        return self._legal  # type: ignore[return-value]

    @property
    def legal_effects(self) -> dict[str, Any]:
        """What each legal entry does (``games.engine.effects``), computed on first use:
        ``{"effects": [unique effect strings], "by_card": {card: [index per legal entry]}}``."""
        if self._effects is None:
            self._fill_legal()
        return self._effects  # type: ignore[return-value]

    def _fill_legal(self) -> None:
        # Both from one move generation, shared with the other processes once.
        entries, effects = (
            self.replay.state.legal_entries_with_effects() if self.replay.ok else ({}, {})
        )
        self._legal, self._effects = entries, index_effects(effects)
        log_cache.share(self)


@dataclass(frozen=True)
class LogSummary:
    """What the hall screen shows of a log (``view_summary``), kept in the shared cache
    beside its view."""

    seq: int
    # The players' entries that stand (``standing_moves``).
    moves: int
    distance: dict[str, int]
    # Team -> its locked pawns.
    locked: dict[str, int]
    winner: str | None
    to_move: str | None


def view_summary(view: LogView) -> LogSummary:
    """What the hall screen shows of a log: a few numbers, where the view is
    a replay of every entry (a hundred views took 100 ms to unpickle)."""
    locked = locked_by_seat(view)
    teams = view.replay.state.ruleset.teams
    return LogSummary(
        seq=view.seq,
        moves=standing_moves(view.texts),
        distance=view.distance,
        locked={team: sum(len(locked[s]) for s in seats) for team, seats in teams.items()},
        winner=view.winner,
        to_move=view.replay.state.to_move,
    )


def standing_moves(texts: list[str]) -> int:
    """The players' entries of a log that stand: judge entries and entries a
    judge voided do not count (a kept entry counts: it was played)."""
    void = {n for n, mark in entry_marks(texts).items() if mark == "void"}
    return sum(
        1
        for n, text in enumerate(texts, start=1)
        if not text.startswith(JUDGE_PREFIX) and n not in void
    )


def locked_by_seat(view: LogView) -> dict[str, list[str]]:
    """Seat → its locked pawns' goal circles (a DUO player: both home areas')."""
    position = view.replay.position
    return {seat: position.locked(seat) for seat in view.replay.state.ruleset.seats}


log_cache: LogCache[LogView, LogSummary] = LogCache(
    size=_CACHE_SIZE, kind=LogView, summary_kind=LogSummary, summarise=view_summary
)
"""The newest replay of each game in this process, and every process's in the shared cache."""


def build_log_view(
    *,
    game: Game,
    entries: Sequence[LogEntry],
    after: LogView | None = None,
    result: ReplayResult | None = None,
    share: bool = True,
) -> LogView:
    """A LogView from the active entries in order (replaying them unless ``result`` is given):
    ``entries`` follow those of ``after`` when it is given (a write appending to its log).

    ``share=False`` keeps it from the shared cache for now: a caller that
    computes its legal moves next shares it then (``LogView._fill_legal``),
    one write of it to Redis instead of two."""
    rows = (after._rows if after is not None else ()) + tuple(entry.row for entry in entries)
    if result is None:
        result = replay(game_record(game=game, moves=[row[2] for row in rows]))
    seq, last = (rows[-1][0], rows[-1][3]) if rows else (0, genesis_hash(game.pk))
    view = LogView(
        game_id=game.pk,
        origin=log_origin(game),
        seq=seq,
        last_hash=last,
        replay=result,
        rows=rows,
        distance=dict(remaining_distance(result.position, result.state.ruleset)["teams"]),
    )
    log_cache.put(view, share=share)
    return view


_ROW_FIELDS = ("seq", "seat", "text", "hash", "events", "created_at")


def head_columns_sql() -> str:
    """Two SQL columns, the last active entry's ``seq`` and ``hash`` of the game aliased ``g``.

    Hand-written SQL for the reads every poll and submission make (the ORM's
    compilation cost more than the query); table names come from the models.
    """
    entry_t = connection.ops.quote_name(MoveEntry._meta.db_table)
    last = (
        f"FROM {entry_t} e WHERE e.game_id = g.id AND e.withdrawn_at IS NULL "
        "ORDER BY e.seq DESC LIMIT 1"
    )
    return f"(SELECT e.seq {last}), (SELECT e.hash {last})"


def log_head(game_id: int, seq: int | None, last: str | None) -> tuple[int, str]:
    """``(seq, hash)`` of a log head as read, the genesis head for an empty log."""
    return (seq, last) if seq and last else (0, genesis_hash(game_id))


def _head_sql() -> str:
    game_t = connection.ops.quote_name(Game._meta.db_table)
    # Names come from the models' meta; the only value is a parameter.
    return (
        f"SELECT g.status, g.winner, g.result_source, g.first_dealer, "  # noqa: S608
        f"{head_columns_sql()} FROM {game_t} g WHERE g.id = %s"
    )


def _read_head(game: Game) -> tuple[int, str]:
    """The log head of ``game``, refreshing the game fields its state shows.

    Every state read (a table device polls every 5 s) runs it. Refreshing
    status, winner, result source and first dealer here means a caller
    holding an older copy of the game (tokens.game_from_token's read memo)
    still answers with the game as it is now.
    """
    with connection.cursor() as cursor:
        cursor.execute(_head_sql(), [game.pk])
        row = cursor.fetchone()
    if row is None:
        return log_head(game.pk, None, None)
    game.status, game.winner, game.result_source, game.first_dealer, seq, last = row
    return log_head(game.pk, seq, last)


def game_log(*, game: Game, head: tuple[int, str] | None = None) -> LogView:
    """The replayed active log of ``game`` (from the cache when the chain head matches).

    ``head`` is the ``(seq, hash)`` of the last active entry when the caller
    has just read it (under the game's lock); otherwise it is read here,
    together with the game fields a state shows.
    """
    if head is None:
        head = _read_head(game)
    seq, last = head
    cached = log_cache.get((game.pk, log_origin(game), seq, last))
    if cached is not None:
        return cached
    rows = active_entries(game=game).values(*_ROW_FIELDS)
    return build_log_view(game=game, entries=[LogEntry.of(row) for row in rows])


@dataclass(frozen=True)
class ChainVerdict:
    """Whether a log's hash chain holds, and else the first entry where it breaks."""

    ok: bool
    first_bad_seq: int | None


def move_log_verify(*, game: Game) -> ChainVerdict:
    """Recompute the hash chain of the active entries."""
    prev = genesis_hash(game.pk)
    expected_seq = 1
    for row in active_entries(game=game).values("seq", "text", "prev_hash", "hash"):
        want = entry_hash(prev_hash=prev, text=row["text"], seq=row["seq"])
        if row["seq"] != expected_seq or row["prev_hash"] != prev or row["hash"] != want:
            return ChainVerdict(ok=False, first_bad_seq=row["seq"])
        prev = row["hash"]
        expected_seq += 1
    return ChainVerdict(ok=True, first_bad_seq=None)
