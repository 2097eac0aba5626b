"""Reads of a competition in play: standings, pairings, histories, the bracket."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, QuerySet

from core.request import int_or_none
from games.models import Game, GameClock
from tournament.models import Bye, Pair, Round, Tournament
from tournament.permissions import PUBLIC_ROUND_STATUSES
from tournament.services.standings import (
    ByeRecord,
    GameRecord,
    StandingPair,
    StandingRow,
    compute_standings,
)

__all__ = [
    "BracketMatch",
    "BracketRound",
    "PairGameRow",
    "RoundOverview",
    "StandingRow",
    "bracket_for_tournament",
    "byes_for_round",
    "current_round",
    "find_table",
    "knockout_results",
    "pair_history",
    "pairings_for_round",
    "round_overview",
    "standings_for_tournament",
]

MAX_START_NUMBER = 100_000
PUBLIC_STATUSES = PUBLIC_ROUND_STATUSES
_GAME_RELATED = ("round", "pair_yb__player_1", "pair_yb__player_2", "pair_rg__player_1",
                 "pair_rg__player_2")  # fmt: skip


def _swiss_results(tournament: Tournament, up_to_round: int | None) -> tuple[Any, Any]:
    games = Game.objects.filter(round__tournament=tournament, round__kind=Round.Kind.SWISS).exclude(
        winner=""
    )
    byes = Bye.objects.filter(round__tournament=tournament, round__kind=Round.Kind.SWISS)
    if up_to_round is not None:
        games = games.filter(round__number__lte=up_to_round)
        byes = byes.filter(round__number__lte=up_to_round)
    return games, byes


def standings_for_tournament(
    *,
    tournament: Tournament,
    up_to_round: int | None = None,
    tiebreaks: list[str] | None = None,
) -> list[StandingRow]:
    """Swiss standings (knockout games do not count), best first.

    Pairs appear once checked in, dropped, or as soon as they have a game or
    a bye; ``row.pair`` is the Pair with both players loaded. ``tiebreaks``
    replaces the event's order (to see what further tiebreaks would decide).
    """
    games, byes = _swiss_results(tournament, up_to_round)
    game_records = [
        GameRecord(
            pair_yb=g["pair_yb_id"],
            pair_rg=g["pair_rg_id"],
            winner=g["winner"],
            locked_yb=g["locked_yb"],
            locked_rg=g["locked_rg"],
            distance_yb=g["distance_yb"],
            distance_rg=g["distance_rg"],
        )
        for g in games.values(
            "pair_yb_id",
            "pair_rg_id",
            "winner",
            "locked_yb",
            "locked_rg",
            "distance_yb",
            "distance_rg",
        )
    ]
    bye_records = [ByeRecord(pair_id=b["pair_id"], points=b["points"]) for b in byes.values()]
    involved = {r.pair_yb for r in game_records} | {r.pair_rg for r in game_records}
    involved |= {b.pair_id for b in bye_records}
    pairs = (
        Pair.objects.filter(tournament=tournament)
        .filter(~Q(status=Pair.Status.REGISTERED) | Q(pk__in=involved))
        .select_related("player_1", "player_2")
    )
    return compute_standings(
        [
            StandingPair(
                pair_id=p.pk,
                start_number=p.start_number,
                dropped=p.status == Pair.Status.DROPPED,
                pair=p,
            )
            for p in pairs
        ],
        game_records,
        bye_records,
        points_win=tournament.points_win,
        points_loss=tournament.points_loss,
        tiebreaks=list(tournament.tiebreaks or []) if tiebreaks is None else tiebreaks,
    )


def pairings_for_round(*, round: Round) -> list[Game]:
    """The round's games by table number, pairs and players loaded."""
    return list(round.games.select_related(*_GAME_RELATED).order_by("table_number"))


def byes_for_round(*, round: Round) -> list[Bye]:
    return list(
        round.byes.select_related("pair__player_1", "pair__player_2").order_by(
            "bracket_slot", "pair__start_number"
        )
    )


def rounds_for_tournament(
    *, tournament: Tournament, include_drafts: bool = False
) -> QuerySet[Round]:
    rounds = tournament.rounds.all().order_by("number")
    if not include_drafts:
        rounds = rounds.filter(status__in=PUBLIC_STATUSES)
    return rounds


def current_round(*, tournament: Tournament, include_drafts: bool = False) -> Round | None:
    """The latest round: published or later, or any when ``include_drafts``."""
    return rounds_for_tournament(tournament=tournament, include_drafts=include_drafts).last()


def find_table(*, round: Round, query: str) -> list[Game]:
    """Games of the round with a pair whose name or player name contains the
    query, or (for a number) whose start number it is."""
    query = (query or "").strip()[:100]
    if not query:
        return []
    condition = Q()
    # A number is a start number, not part of a name.
    number = int_or_none(query, minimum=1, maximum=MAX_START_NUMBER)
    for side in ("pair_yb", "pair_rg"):
        if number is not None:
            condition |= Q(**{f"{side}__start_number": number})
            continue
        condition |= Q(**{f"{side}__name__icontains": query})
        condition |= Q(**{f"{side}__player_1__name__icontains": query})
        condition |= Q(**{f"{side}__player_2__name__icontains": query})
    return list(
        round.games.filter(condition).select_related(*_GAME_RELATED).order_by("table_number")
    )


@dataclass
class PairGameRow:
    round: Round
    round_number: int
    table_number: int | None
    opponent: Pair | None
    colours: str  # "YB", "RG", or "" for a bye
    result: str  # "win", "loss", "bye" or "" while the game has no result
    points: int | None
    game: Game | None = None

    @property
    def round_id(self) -> int:
        return self.round.pk

    @property
    def game_id(self) -> int | None:
        return self.game.pk if self.game else None


def pair_history(*, pair: Pair, include_drafts: bool = False) -> list[PairGameRow]:
    """Every game and bye of the pair, oldest first."""
    tournament = pair.tournament
    statuses = None if include_drafts else PUBLIC_STATUSES
    games = Game.objects.filter(Q(pair_yb=pair) | Q(pair_rg=pair)).select_related(*_GAME_RELATED)
    byes = Bye.objects.filter(pair=pair).select_related("round")
    if statuses is not None:
        games = games.filter(round__status__in=statuses)
        byes = byes.filter(round__status__in=statuses)
    rows: list[PairGameRow] = []
    for game in games:
        colours = "YB" if game.pair_yb_id == pair.pk else "RG"
        opponent = game.pair_rg if colours == "YB" else game.pair_yb
        result, points = "", None
        if game.winner:
            won = game.winner == colours
            result = "win" if won else "loss"
            if game.round.kind == Round.Kind.SWISS:
                points = tournament.points_win if won else tournament.points_loss
        rows.append(
            PairGameRow(
                round=game.round,
                round_number=game.round.number,
                table_number=game.table_number,
                opponent=opponent,
                colours=colours,
                result=result,
                points=points,
                game=game,
            )
        )
    for bye in byes:
        rows.append(
            PairGameRow(
                round=bye.round,
                round_number=bye.round.number,
                table_number=None,
                opponent=None,
                colours="",
                result="bye",
                points=bye.points if bye.round.kind == Round.Kind.SWISS else None,
            )
        )
    rows.sort(key=lambda r: r.round_number)
    return rows


@dataclass
class BracketMatch:
    slot: int
    pair_a: Pair | None
    pair_b: Pair | None
    winner: Pair | None
    game: Game | None
    is_third_place: bool = False

    @property
    def is_bye(self) -> bool:
        return self.game is None

    @property
    def game_id(self) -> int | None:
        return self.game.pk if self.game else None


@dataclass
class BracketRound:
    round: Round
    stage: int
    name_en: str
    name_da: str
    matches: list[BracketMatch] = field(default_factory=list)

    @property
    def round_id(self) -> int:
        return self.round.pk


@dataclass(frozen=True)
class KnockoutResult:
    """One line of a published knockout round: a game, or a bye (``pair_b`` None)."""

    stage: int
    third_place: bool
    pair_a: int
    pair_b: int | None
    winner: int | None


def knockout_results(*, tournament: Tournament) -> list[KnockoutResult]:
    """Published knockout games and byes as plain ids: two queries, for readers
    that need outcomes only (a season's placings), not the bracket's pairs."""
    rounds = Q(round__tournament=tournament, round__kind=Round.Kind.KNOCKOUT)
    rounds &= Q(round__status__in=PUBLIC_STATUSES)
    games = Game.objects.filter(rounds).values_list(
        "round__knockout_stage", "round__bracket_matches", "bracket_slot", "pair_yb_id",
        "pair_rg_id", "winner",
    )  # fmt: skip
    found = [
        KnockoutResult(
            stage=stage or 0,
            third_place=(slot or 0) > (matches or 0),
            pair_a=yb,
            pair_b=rg,
            winner={"YB": yb, "RG": rg}.get(winner),
        )
        for stage, matches, slot, yb, rg, winner in games
    ]
    byes = Bye.objects.filter(rounds).values_list("round__knockout_stage", "pair_id")
    found += [KnockoutResult(stage or 0, False, pair, None, pair) for stage, pair in byes]
    return found


def knockout_stage_names(matches: int) -> tuple[str, str]:
    if matches == 1:
        return "Final", "Finale"
    if matches == 2:
        return "Semi-finals", "Semifinaler"
    if matches == 4:
        return "Quarter-finals", "Kvartfinaler"
    if matches == 8:
        return "Round of 16", "Ottendedelsfinaler"
    return f"Round of {matches * 2}", f"Knockout-runde med {matches * 2} par"


def bracket_for_tournament(
    *, tournament: Tournament, include_drafts: bool = False
) -> list[BracketRound]:
    """The knockout rounds in order. In a match ``pair_a`` is the pair from
    the upper bracket line; it plays Yellow/Blue."""
    rounds = rounds_for_tournament(tournament=tournament, include_drafts=include_drafts).filter(
        kind=Round.Kind.KNOCKOUT
    )
    result: list[BracketRound] = []
    for knockout_round in rounds:
        matches_count = knockout_round.bracket_matches or 0
        name_en, name_da = knockout_stage_names(matches_count)
        bracket = BracketRound(
            round=knockout_round,
            stage=knockout_round.knockout_stage or 0,
            name_en=name_en,
            name_da=name_da,
        )
        for game in pairings_for_round(round=knockout_round):
            bracket.matches.append(
                BracketMatch(
                    slot=game.bracket_slot or 0,
                    pair_a=game.pair_yb,
                    pair_b=game.pair_rg,
                    winner=game.winner_pair,
                    game=game,
                    is_third_place=(game.bracket_slot or 0) > matches_count,
                )
            )
        for bye in byes_for_round(round=knockout_round):
            bracket.matches.append(
                BracketMatch(
                    slot=bye.bracket_slot or 0,
                    pair_a=bye.pair,
                    pair_b=None,
                    winner=bye.pair,
                    game=None,
                )
            )
        bracket.matches.sort(key=lambda m: m.slot)
        result.append(bracket)
    return result


@dataclass(frozen=True)
class RoundOverview:
    """The organiser's glance at one round: results in, clocks, tables."""

    round: Round
    tables: int
    results: int
    playing: int
    paused: int
    time_up: int

    @property
    def missing(self) -> int:
        return self.tables - self.results


def round_overview(*, round: Round) -> RoundOverview:
    counts = round.games.aggregate(
        tables=Count("pk"),
        results=Count("pk", filter=~Q(winner="")),
        playing=Count("pk", filter=Q(status=Game.Status.IN_PROGRESS)),
        time_up=Count("pk", filter=Q(status=Game.Status.TIME_UP)),
    )
    paused = GameClock.objects.filter(
        game__round=round, paused_at__isnull=False, stopped_at__isnull=True
    ).count()
    return RoundOverview(round=round, paused=paused, **counts)
