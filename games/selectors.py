"""Reads of the games app: the move log and the state the engine derives from it.

The log is the truth: a game's state is ``replay()`` of its active entries.
Replays are cached in process memory keyed by ``(game, seq, last hash)``;
the hash chains every entry, so a key names exactly one log and a cached
value can never be stale. Another process simply replays again.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from datetime import datetime
from typing import Any

from cachetools import LRUCache
from django.db import connection
from django.db.models import OuterRef, Prefetch, QuerySet, Subquery
from django.utils import timezone

from core.shared_cache import shared_add, shared_get, shared_get_many, shared_set, shared_set_many
from games.engine import (
    CARDS,
    COLOUR_DA,
    COLOUR_EN,
    ERROR_MESSAGES,
    ReplayResult,
    get_ruleset,
    index_effects,
    remaining_distance,
    replay,
)
from games.models import ClockEvent, Game, MoveEntry, ResultConfirmation
from games.services.clock import CLOCK_STATUS_LABELS, clock_state
from tournament.permissions import PUBLIC_ROUND_STATUSES

SHORT_HASH_LENGTH = 8
# The public live view shows (and polls) the last entries only.
LIVE_TAIL = 20
# Games whose newest replay a web process keeps (a round has at most a few hundred).
_CACHE_SIZE = 512
_SHARED_TIMEOUT = 6 * 60 * 60
logger = logging.getLogger(__name__)


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
    """Seat → player name: Yellow/Blue are the YB pair's players 1 and 2, likewise R/G."""
    return {
        "Y": game.pair_yb.player_1.name,
        "R": game.pair_rg.player_1.name,
        "B": game.pair_yb.player_2.name,
        "G": game.pair_rg.player_2.name,
    }


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


LogKey = tuple[int, str, int, str]
"""(game id, ruleset and first dealer, seq, last hash): names exactly one replay."""


def _origin(game: Game) -> str:
    # The hash chain covers the entries, not the frame they are replayed in.
    return f"{game.round.tournament.ruleset}-{game.first_dealer}"


class LogView:
    """The replayed log of one game at one point of its hash chain.

    The legal moves of the seat to move are computed on first use (a 7 can
    have hundreds of splits): a submission does not need them, the table
    page's next read does.
    """

    __slots__ = (
        "_effects",
        "_legal",
        "distance",
        "entries",
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
        entries: tuple[dict[str, Any], ...],
        distance: dict[str, int],
    ) -> None:
        self.game_id = game_id
        self.origin = origin
        self.seq = seq
        self.last_hash = last_hash
        self.replay = replay
        self.entries = entries
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
        _shared_put(self)


def _shared_key(key: LogKey) -> str:
    return "movelog:v1:" + ":".join(str(part) for part in key)


def _summary_key(key: LogKey) -> str:
    return "movelog:summary:v1:" + ":".join(str(part) for part in key)


def view_summary(view: LogView) -> dict[str, Any]:
    """What the hall screen shows of a log: a few numbers, where the view is
    a replay of every entry (a hundred views took 100 ms to unpickle)."""
    locked = _locked(view)
    return {
        "seq": view.seq,
        "distance": view.distance,
        "locked": {
            "YB": len(locked["Y"]) + len(locked["B"]),
            "RG": len(locked["R"]) + len(locked["G"]),
        },
        "winner": view.winner,
        "to_move": view.replay.state.to_move,
    }


def _shared_put(view: LogView) -> None:
    # The shared cache (Redis in production) lets every web process reuse a
    # replay made by another; it is keyed by the chain head, so never stale.
    # The summary goes with it in the same round trip.
    shared_set_many(
        {_shared_key(view.key): view, _summary_key(view.key): view_summary(view)},
        _SHARED_TIMEOUT,
    )


def _shared_summaries(keys: list[LogKey]) -> dict[LogKey, dict[str, Any]]:
    """The summaries of ``keys`` the shared cache has, in one round trip."""
    names = {_summary_key(key): key for key in keys}
    return {names[name]: summary for name, summary in shared_get_many(list(names)).items()}


def _shared_get(key: LogKey) -> LogView | None:
    view = shared_get(_shared_key(key))
    return view if isinstance(view, LogView) else None


class _LogCache:
    """The newest replayed view of each game, for ``size`` games.

    One view per game, not one per head: a view holds a few hundred objects
    per entry (the entries, the replay's events), and a process keeping every
    head of a busy round held a million of them, which the garbage collector
    walked in pauses of 100-350 ms. An older head (a take-back, a read racing
    a submission) comes from the shared cache instead.
    """

    def __init__(self, size: int) -> None:
        self._data: LRUCache[int, LogView] = LRUCache(maxsize=size)
        self._lock = threading.Lock()  # cachetools' caches are not thread-safe

    def _local(self, key: LogKey) -> LogView | None:
        # Under self._lock: this process's view of the game, if it is at ``key``.
        view = self._data.get(key[0])
        return view if view is not None and view.key == key else None

    def get(self, key: LogKey) -> LogView | None:
        with self._lock:
            view = self._local(key)
        if view is not None:
            return view
        view = _shared_get(key)
        if view is not None:
            self.put(view, share=False)
        return view

    def put(self, view: LogView, *, share: bool = True) -> None:
        with self._lock:
            self._data[view.game_id] = view
        if share:
            _shared_put(view)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def warm(self, keys: list[LogKey]) -> None:
        """Fetch the views of ``keys`` this process lacks from the shared cache in
        one round trip (the hall summary needs every table's, most made elsewhere)."""
        with self._lock:
            missing = [key for key in keys if self._local(key) is None]
        for view in shared_get_many([_shared_key(key) for key in missing]).values():
            if isinstance(view, LogView):
                self.put(view, share=False)


log_cache = _LogCache(_CACHE_SIZE)


def entry_json(entry: MoveEntry | dict[str, Any]) -> dict[str, Any]:
    """One entry as the API shows it.

    ``events`` is a tuple (JSON renders it as a list): an entry that hits or
    locks nothing then holds only strings and numbers, and CPython's collector
    stops tracking it after one look. A replayed view keeps every entry of
    its game for as long as the game is played; with a list in each, every
    full collection of a web process walked them all again.
    """
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
    return {
        "seq": row["seq"],
        "seat": row["seat"],
        "text": row["text"],
        "hash": row["hash"],
        "short_hash": short_hash(row["hash"]),
        "events": tuple(row["events"] or ()),
        "created_at": created.isoformat() if isinstance(created, datetime) else created,
    }


def build_log_view(
    *,
    game: Game,
    rows: list[dict[str, Any]],
    result: ReplayResult | None = None,
    share: bool = True,
) -> LogView:
    """A LogView from the active rows in order (replaying them unless ``result`` is given).

    ``share=False`` keeps it from the shared cache for now: a caller that
    computes its legal moves next shares it then (``LogView._fill_legal``),
    one write of it to Redis instead of two."""
    if result is None:
        result = replay(game_record(game=game, moves=[r["text"] for r in rows]))
    seq = rows[-1]["seq"] if rows else 0
    last = rows[-1]["hash"] if rows else genesis_hash(game.pk)
    view = LogView(
        game_id=game.pk,
        origin=_origin(game),
        seq=seq,
        last_hash=last,
        replay=result,
        entries=tuple(entry_json(r) for r in rows),
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
    cached = log_cache.get((game.pk, _origin(game), seq, last))
    if cached is not None:
        return cached
    rows = list(active_entries(game=game).values(*_ROW_FIELDS))
    return build_log_view(game=game, rows=rows)


def move_log_verify(*, game: Game) -> dict[str, Any]:
    """Recompute the hash chain of the active entries: ``{"ok", "first_bad_seq"}``."""
    prev = genesis_hash(game.pk)
    expected_seq = 1
    for row in active_entries(game=game).values("seq", "text", "prev_hash", "hash"):
        want = entry_hash(prev_hash=prev, text=row["text"], seq=row["seq"])
        if row["seq"] != expected_seq or row["prev_hash"] != prev or row["hash"] != want:
            return {"ok": False, "first_bad_seq": row["seq"]}
        prev = row["hash"]
        expected_seq += 1
    return {"ok": True, "first_bad_seq": None}


def _locked(view: LogView) -> dict[str, list[str]]:
    position = view.replay.position
    return {seat: position.locked(seat) for seat in ("Y", "R", "B", "G")}


def game_state(
    *,
    game: Game,
    with_entries: bool = True,
    with_legal: bool = True,
    entries_tail: int = 0,
    view: LogView | None = None,
) -> dict[str, Any]:
    """Everything a table page or live view shows, derived from the log.

    ``with_legal=False`` leaves out the legal moves (``legal_entries`` is
    then null: read the state to get them); ``entries_tail`` limits the
    entries to the last N. A caller that has just built the log's view
    (a write, under the game's lock) passes it as ``view``.
    """
    if view is None:
        view = game_log(game=game)
    state = view.replay.state
    # Confirmations exist only while the log has a winner (a take-back of the
    # winning entry deletes them), so a game in play needs no query for them.
    confirmed = (
        set(ResultConfirmation.objects.filter(game=game).values_list("pair_side", flat=True))
        if view.winner
        else set()
    )
    error = view.replay.first_error
    data: dict[str, Any] = {
        "game_id": game.pk,
        "tournament": game.round.tournament.slug,
        "round": game.round.number,
        "table": game.table_number,
        "status": game.status,
        "ruleset": game.round.tournament.ruleset,
        "first_dealer": game.first_dealer,
        "seq": view.seq,
        "last_hash": view.last_hash,
        "short_hash": short_hash(view.last_hash),
        "position": view.replay.position.to_json(),
        "locked": _locked(view),
        "to_move": state.to_move,
        "dealer": state.dealer,
        "hand_sizes": dict(state.hand_sizes),
        # The deal as far as the device needs it to go on offline (RULES D1, D5, D6).
        "deal_number": state.deal_number,
        "penalised": list(state.penalised),
        "cards_seen": dict(state.cards_seen),
        "winner": view.winner,
        "distance": view.distance,
        "legal_entries": view.legal_entries if with_legal else None,
        "legal_effects": view.legal_effects if with_legal else None,
        "confirmations": {"YB": "YB" in confirmed, "RG": "RG" in confirmed},
        "result": {
            "winner": game.winner or None,
            "source": game.result_source or None,
            "finished": game.status == Game.Status.FINISHED,
        },
        "log_error": None if error is None else error.to_json(),
        "server_time": timezone.now().isoformat(),
    }
    if with_entries:
        data["entries"] = list(view.entries[-entries_tail:] if entries_tail else view.entries)
    return data


OFFLINE_MIRRORED_RULESET = "dm2023"
"""The ruleset static/js/table/rules.js plays offline (its MIRRORED_RULESET)."""


def table_rules(*, ruleset: str, lang: str) -> dict[str, Any]:
    """What the table device needs to play entries on its own while offline.

    The ruleset's deal (hand sizes, deals per dealer, copies of each card:
    RULES D1, D5, D6) and the engine's refusal messages in ``lang`` with the
    colour names they use, so a refusal shown offline has the engine's words
    (static/js/table/rules.js).
    """
    rules = get_ruleset(ruleset)
    column = 2 if lang == "da" else 1
    return {
        "ruleset": rules.name,
        # static/js/table/rules.js mirrors dm2023 only; other rulesets are checked online.
        "offline_mirror": rules.name == OFFLINE_MIRRORED_RULESET,
        "hand_size": rules.hand_size,
        "penalty_hand_size": rules.penalty_hand_size,
        "deals_per_dealer": rules.deals_per_dealer,
        "copies": {card: rules.copies(card) for card in CARDS},
        "messages": {key: [row[0], row[column]] for key, row in ERROR_MESSAGES.items()},
        "colours": {"en": dict(COLOUR_EN), "da": dict(COLOUR_DA)},
    }


def round_games(*, tournament_slug: str, round_number: int) -> QuerySet[Game]:
    return Game.objects.select_related(
        "round__tournament",
        "pair_yb__player_1",
        "pair_yb__player_2",
        "pair_rg__player_1",
        "pair_rg__player_2",
    ).filter(round__tournament__slug=tournament_slug, round__number=round_number)


def hall_round(*, tournament: Any) -> Any:
    """The round a hall screen shows: the one in progress, else the latest published."""
    rounds = tournament.rounds.filter(status__in=PUBLIC_ROUND_STATUSES).order_by("-number")
    return rounds.filter(status="in_progress").first() or rounds.first()


# Hall screens and many phones poll the same summary; a game's log changes at
# most every few seconds, so one shared copy per round for a moment spares
# every poll from touching each table's log.
HALL_CACHE_SECONDS = 2
# An older summary is served while one process renews it, never older than this.
HALL_STALE_SECONDS = 30
_HALL_CLOCK_FIELDS = (
    "status",
    "elapsed_s",
    "remaining_s",
    "limit_s",
    "alert_s",
    "speed",
    "server_time",
)


def hall_tables(*, round_: Any) -> list[dict[str, Any]]:
    """One summary per table of ``round_``: teams, progress, locked pawns, elapsed time, clock.

    Shared by all processes for ``HALL_CACHE_SECONDS`` (progress and clocks
    may lag by that much). ``clock`` has the clock API's fields a display
    counts from (``games.services.clock.clock_state``), every table's taken
    at the same ``server_time``: a display counts a running clock on from
    that instant, so a copy served a moment later shows the same time.
    ``status_label`` is added per request, in the request's language.
    """
    # v3: kept with the time it was made (v2 had none; v1 no clocks).
    key = f"hall:v3:{round_.pk}:{round_.created_at.timestamp()}:{round_.status}"
    kept = shared_get(key)
    now = time.time()
    fresh = kept is not None and now - kept[0] < HALL_CACHE_SECONDS
    # One process renews an old summary; the others serve the old one meanwhile,
    # so a hundred polls arriving as it ages do not all rebuild it at once.
    if not fresh and (kept is None or shared_add(f"{key}:renewing", HALL_CACHE_SECONDS)):
        kept = (now, _hall_tables(round_=round_))
        shared_set(key, kept, HALL_STALE_SECONDS)
    assert kept is not None
    return [_hall_labelled(table) for table in kept[1]]


def _hall_labelled(table: dict[str, Any]) -> dict[str, Any]:
    clock = table["clock"]
    label = str(CLOCK_STATUS_LABELS[clock["status"]])
    return {**table, "clock": {**clock, "status_label": label}}


def _hall_tables(*, round_: Any) -> list[dict[str, Any]]:
    full = 8 * 61  # every pawn in its start circle (RULES W3)
    # The chain head of every table in the same query as the tables (not one
    # query per table); game_log then finds the replay in the cache.
    head = MoveEntry.objects.filter(game=OuterRef("pk"), withdrawn_at__isnull=True).order_by("-seq")
    games = (
        round_games(tournament_slug=round_.tournament.slug, round_number=round_.number)
        .select_related("clock")
        .prefetch_related(
            # clock_state reads the extensions and pauses of a clock's events.
            Prefetch(
                "clock__events",
                queryset=ClockEvent.objects.filter(
                    kind__in=(ClockEvent.Kind.EXTEND, ClockEvent.Kind.PAUSE)
                ).select_related("actor"),
            )
        )
        .annotate(
            head_seq=Subquery(head.values("seq")[:1]),
            head_hash=Subquery(head.values("hash")[:1]),
        )
        .order_by("table_number")
    )
    games = list(games)
    keys = {
        game.pk: (game.pk, _origin(game), *log_head(game.pk, game.head_seq, game.head_hash))
        for game in games
    }
    # Every table's summary in one round trip; the replays of those without
    # one (made before summaries existed, or the cache lost them) in another.
    summaries = _shared_summaries(list(keys.values()))
    log_cache.warm([key for key in keys.values() if key not in summaries])
    tables = []
    now = timezone.now()
    for game in games:
        summary = summaries.get(keys[game.pk])
        if summary is None:
            summary = view_summary(game_log(game=game, head=keys[game.pk][2:]))
        clock = clock_state(game=game, now=now)
        tables.append(
            {
                "game_id": game.pk,
                "table": game.table_number,
                "status": game.status,
                "pair_yb": game.pair_yb.display_name,
                "pair_rg": game.pair_rg.display_name,
                "seq": summary["seq"],
                "distance": summary["distance"],
                "progress": {
                    team: round(100 * (full - summary["distance"][team]) / full)
                    for team in ("YB", "RG")
                },
                "locked": summary["locked"],
                "winner": summary["winner"] or game.winner or None,
                "elapsed_s": int((now - game.started_at).total_seconds())
                if game.started_at
                else None,
                "to_move": summary["to_move"],
                "clock": {field: clock[field] for field in _HALL_CLOCK_FIELDS},
            }
        )
    return tables


RESULT_ROW_FIELDS = (
    "id", "winner", "table_number", "round__number", "round__tournament_id",
    "round__tournament__date",
    "pair_yb__player_1__person_id", "pair_yb__player_2__person_id",
    "pair_rg__player_1__person_id", "pair_rg__player_2__person_id",
)  # fmt: skip


def results_with_people(*, since: Any = None, game_ids: Any = None) -> QuerySet[Game]:
    """Every game with a result, as plain rows naming the people of both pairs.

    ``since`` (a date) keeps events on or after that day; ``game_ids`` keeps those
    games. Draft rounds have no results (the result service refuses them).
    """
    games = Game.objects.exclude(winner="")
    if since is not None:
        games = games.filter(round__tournament__date__gte=since)
    if game_ids is not None:
        games = games.filter(pk__in=game_ids)
    return games.values(*RESULT_ROW_FIELDS)  # type: ignore[return-value]


def move_logs(*, games: list[Game]) -> dict[int, tuple[dict[str, Any], list[datetime]]]:
    """Each game's NOTATION.md record (its active entries) and the entries' logging times.

    One query for all the games (a round, an event): for statistics, which
    replay each record with the engine. ``games`` must have their round and
    tournament loaded.
    """
    texts: dict[int, list[str]] = {g.pk: [] for g in games}
    times: dict[int, list[datetime]] = {g.pk: [] for g in games}
    rows = (
        MoveEntry.objects.filter(game_id__in=list(texts), withdrawn_at__isnull=True)
        .order_by("game_id", "seq")
        .values_list("game_id", "text", "created_at")
    )
    for game_id, text, created_at in rows.iterator(chunk_size=5000):
        texts[game_id].append(text)
        times[game_id].append(created_at)
    return {g.pk: (game_record(game=g, moves=texts[g.pk]), times[g.pk]) for g in games}
