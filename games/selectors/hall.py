"""Reads for the hall screen: every table of a round at a glance."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.db.models import OuterRef, Prefetch, QuerySet, Subquery
from django.utils import timezone

from core.cache import cache_key
from core.live_copy import mark_of, tables_scope
from games.engine import get_ruleset, initial_position, remaining_distance
from games.models import ClockEvent, Game, MoveEntry
from games.selectors.cache import hall_cached
from games.selectors.clock import CLOCK_STATUS_LABELS, clock_state
from games.selectors.log import game_log, log_cache, log_head, log_origin, view_summary
from games.signals import hall_calls_wanted
from tournament.models import Round, Tournament
from tournament.permissions import PUBLIC_ROUND_STATUSES


def round_games(*, tournament_slug: str, round_number: int) -> QuerySet[Game]:
    return Game.objects.select_related(
        "round__tournament",
        "pair_yb__player_1",
        "pair_yb__player_2",
        "pair_rg__player_1",
        "pair_rg__player_2",
    ).filter(round__tournament__slug=tournament_slug, round__number=round_number)


def hall_round(*, tournament: Tournament) -> Round | None:
    """The round a hall screen shows: the one in progress, else the latest published."""
    rounds = tournament.rounds.filter(status__in=PUBLIC_ROUND_STATUSES).order_by("-number")
    return rounds.filter(status="in_progress").first() or rounds.first()


@dataclass(frozen=True)
class HallClock:
    """The fields of the clock API a display counts from (``clock_state``), and the
    status in the request's language (``status_label``, None in the shared copy)."""

    status: str
    elapsed_s: float
    remaining_s: float
    limit_s: float
    alert_s: float
    speed: float
    server_time: str
    status_label: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "status": self.status,
            "elapsed_s": self.elapsed_s,
            "remaining_s": self.remaining_s,
            "limit_s": self.limit_s,
            "alert_s": self.alert_s,
            "speed": self.speed,
            "server_time": self.server_time,
        }
        if self.status_label is not None:
            data["status_label"] = self.status_label
        return data


@dataclass(frozen=True)
class HallTable:
    """One table of the hall screen; ``to_json`` is its row of the hall API
    (``games.serializers.HallTableSerializer``), in the fields' order."""

    game_id: int
    table: int
    status: str
    pair_yb: str
    pair_rg: str
    # Entries in the log, judge entries included.
    seq: int
    # The players' entries that stand (``standing_moves``).
    moves: int
    # The open judge call: "open", "taken" or None.
    call: str | None
    distance: dict[str, int]
    # Team -> percent of its full distance covered.
    progress: dict[str, int]
    locked: dict[str, int]
    winner: str | None
    # Real seconds since the game started.
    elapsed_s: int | None
    to_move: str | None
    clock: HallClock

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "table": self.table,
            "status": self.status,
            "pair_yb": self.pair_yb,
            "pair_rg": self.pair_rg,
            "seq": self.seq,
            "moves": self.moves,
            "call": self.call,
            "distance": self.distance,
            "progress": self.progress,
            "locked": self.locked,
            "winner": self.winner,
            "elapsed_s": self.elapsed_s,
            "to_move": self.to_move,
            "clock": self.clock.to_json(),
        }


def hall_tables(*, round_: Round) -> list[HallTable]:
    """One summary per table of ``round_``: teams, progress, locked pawns, elapsed time, clock.

    Shared by all processes for ``HALL_CACHE_SECONDS`` (progress and clocks
    may lag by that much). ``clock`` has the clock API's fields a display
    counts from (``games.selectors.clock.clock_state``), every table's taken
    at the same ``server_time``: a display counts a running clock on from
    that instant, so a copy served a moment later shows the same time.
    ``status_label`` is added per request, in the request's language.
    """
    # v5: HallTable values (v4 dicts with the standing moves and judge calls;
    # v3 had neither; v2 no time; v1 no clocks).
    key = cache_key("hall", "v5", round_.pk, round_.created_at.timestamp(), round_.status)
    # The event's tables mark (core.live_copy), read before the tables: a summary
    # made before a move or a call is never taken for the one after it, so the
    # hall's shared copy (config.live_poll) is never made from an old one.
    key += f":{mark_of(tables_scope(round_.tournament_id))}"
    tables = hall_cached(key, lambda: _hall_tables(round_=round_))
    return [_hall_labelled(table) for table in tables]


def hall_urgency(table: HallTable) -> tuple[int, int]:
    """Sort key of a hall table, most urgent first (as ``live.js`` orders after each poll):
    an open judge call, a judge on the way, past the time limit, past the alert
    mark, paused, playing, finished; by table number within each."""
    clock = table.clock
    if table.call == "open":
        rank = 0
    elif table.call == "taken":
        rank = 1
    elif table.winner:
        rank = 6
    elif clock.status == "time_up" or clock.elapsed_s >= clock.limit_s:
        rank = 2
    elif clock.elapsed_s >= clock.alert_s:
        rank = 3
    elif clock.status == "paused":
        rank = 4
    else:
        rank = 5
    return rank, table.table


def _hall_labelled(table: HallTable) -> HallTable:
    label = str(CLOCK_STATUS_LABELS[table.clock.status])
    return replace(table, clock=replace(table.clock, status_label=label))


def hall_calls(*, round_id: int) -> dict[int, str]:
    """Game id -> its open judge call's status ("open" or "taken"), as the judging
    app answers ``hall_calls_wanted`` (games sits below judging and cannot read it)."""
    calls: dict[int, str] = {}
    for _receiver, answer in hall_calls_wanted.send(sender=Round, round_id=round_id):
        if isinstance(answer, dict):
            calls.update(answer)
    return calls


def _hall_tables(*, round_: Round) -> list[HallTable]:
    # A side's distance with every pawn at home (RULES W3: 8 × 61; DUO W2: 6 × 60).
    ruleset = get_ruleset(round_.tournament.ruleset)
    full = remaining_distance(initial_position(ruleset), ruleset)["teams"]["YB"]
    # The chain head of every table in the same query as the tables (not one
    # query per table); game_log then finds the replay in the cache.
    head = MoveEntry.objects.filter(game=OuterRef("pk"), withdrawn_at__isnull=True).order_by("-seq")
    query = (
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
    games = list(query)
    keys = {
        game.pk: (game.pk, log_origin(game), *log_head(game.pk, game.head_seq, game.head_hash))
        for game in games
    }
    # Every table's summary in one round trip; the replays of those without
    # one (made before summaries existed, or the cache lost them) in another.
    summaries = log_cache.summaries(list(keys.values()))
    log_cache.warm([key for key in keys.values() if key not in summaries])
    calls = hall_calls(round_id=round_.pk)
    tables = []
    now = timezone.now()
    for game in games:
        summary = summaries.get(keys[game.pk])
        if summary is None:
            summary = view_summary(game_log(game=game, head=keys[game.pk][2:]))
        clock = clock_state(game=game, now=now)
        tables.append(
            HallTable(
                game_id=game.pk,
                table=game.table_number,
                status=game.status,
                pair_yb=game.pair_yb.display_name,
                pair_rg=game.pair_rg.display_name,
                seq=summary.seq,
                moves=summary.moves,
                call=calls.get(game.pk),
                distance=summary.distance,
                progress={
                    team: round(100 * (full - summary.distance[team]) / full)
                    for team in ("YB", "RG")
                },
                locked=summary.locked,
                winner=summary.winner or game.winner or None,
                elapsed_s=int((now - game.started_at).total_seconds()) if game.started_at else None,
                to_move=summary.to_move,
                clock=HallClock(
                    status=clock.status,
                    elapsed_s=clock.elapsed_s,
                    remaining_s=clock.remaining_s,
                    limit_s=clock.limit_s,
                    alert_s=clock.alert_s,
                    speed=clock.speed,
                    server_time=clock.server_time,
                ),
            )
        )
    return tables
