"""Reads of finished games across events: results and whole move logs (ratings, statistics)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from django.db.models import QuerySet

from games.models import Game, MoveEntry
from games.selectors.log import game_record
from tournament.permissions import public_round_q

RESULT_ROW_FIELDS = (
    "id", "winner", "table_number", "round__number", "round__tournament_id",
    "round__tournament__date",
    "pair_yb__player_1__person_id", "pair_yb__player_2__person_id",
    "pair_rg__player_1__person_id", "pair_rg__player_2__person_id",
)  # fmt: skip


def results_with_people(
    *, since: date | None = None, game_ids: Iterable[int] | None = None, public: bool = False
) -> QuerySet[Game, dict[str, Any]]:
    """Every game with a result, as plain rows naming the people of both pairs.

    ``since`` (a date) keeps events on or after that day; ``game_ids`` keeps those
    games. ``public``: only games of rounds everyone sees (a published event, no
    draft round: ``tournament.permissions.public_round_q``), as the ratings count.
    Draft rounds have no results anyway (the result service refuses them).
    """
    games = Game.objects.exclude(winner="")
    if public:
        games = games.filter(public_round_q("round__"))
    if since is not None:
        games = games.filter(round__tournament__date__gte=since)
    if game_ids is not None:
        games = games.filter(pk__in=game_ids)
    rows: QuerySet[Game, dict[str, Any]] = games.values(*RESULT_ROW_FIELDS)
    return rows


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
