"""Statistics of games, events, seasons and players, from the validated move logs.

Only games with a result in public rounds of published events count on the
public pages (``public=True``); the numbers come from replaying each game's
log with the engine (``stats.compute``). A player's page names only people
who consented to publish: their partners and opponents who did not are
"a player" there (``people.selectors_public``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from games.engine import CARDS, find_variant
from games.models import Game
from games.selectors import move_logs
from people.models import Person
from people.selectors_public import public_names
from stats.compute import GameStats, Summary, game_stats, summarise
from tournament.models import Tournament
from tournament.permissions import public_round_q


def _games(games: QuerySet[Game], *, public: bool, finished: bool = True) -> list[Game]:
    if finished:
        games = games.exclude(winner="")
    games = games.select_related(
        "round__tournament", "pair_yb__player_1", "pair_yb__player_2",
        "pair_rg__player_1", "pair_rg__player_2",
    )  # fmt: skip
    if public:
        games = games.filter(public_round_q("round__"))
    return list(games.order_by("round__tournament__date", "round__number", "table_number"))


def stats_of_games(games: Iterable[Game]) -> list[GameStats]:
    """Replay and count each game's log (games without entries are left out)."""
    listed = list(games)
    logs = move_logs(games=listed)
    out = []
    for game in listed:
        record, times = logs[game.pk]
        if not record["moves"] or not find_variant(record["ruleset"]).counted_in_statistics:
            # DUO games are left out: the counts are per four seats and two pairs
            # (docs/ratings-and-statistics.md "DUO games").
            continue
        stats = game_stats(game_id=game.pk, record=record, times=times, started_at=game.started_at)
        # A game stopped on time has no winner on the board: its result names one (W3).
        stats.winner = stats.winner or game.winner or None
        out.append(stats)
    return out


@dataclass
class GameLine:
    """A game with its numbers, as a page lists it."""

    game: Game
    stats: Any  # GameStats; None on a game page while the game has no valid log


@dataclass
class StatsPage:
    summary: Summary
    lines: list[GameLine]

    def line(self, game_id: int) -> GameLine | None:
        return next((line for line in self.lines if line.game.pk == game_id), None)


def _page(games: list[Game]) -> StatsPage:
    by_id = {g.pk: g for g in games}
    computed = stats_of_games(games)
    lines = [GameLine(by_id[s.game_id], s) for s in computed if s.complete]
    return StatsPage(summarise(computed), lines)


def stats_for_tournament(*, tournament: Tournament, public: bool = True) -> StatsPage:
    return _page(_games(Game.objects.filter(round__tournament=tournament), public=public))


def stats_for_tournaments(*, tournaments: Iterable[Tournament], public: bool = True) -> StatsPage:
    """A season's (or any list of events') statistics."""
    ids = [t.pk for t in tournaments]
    return _page(_games(Game.objects.filter(round__tournament_id__in=ids), public=public))


def stats_for_round(*, round_: Any) -> list[GameStats]:
    """Every game of one round with a log, whatever its result (the benchmark's unit)."""
    games = Game.objects.filter(round=round_).select_related("round__tournament")
    return stats_of_games(games.order_by("table_number"))


def game_with_stats(
    *, tournament: Tournament, game_id: int, public: bool = True
) -> GameLine | None:
    """One game and its numbers, also while it is played (``stats`` None: no valid log yet).

    None when the event has no such game in a round the public sees.
    """
    games = Game.objects.filter(round__tournament=tournament, pk=game_id)
    found = _games(games, public=public, finished=False)
    if not found:
        return None
    computed = [s for s in stats_of_games(found) if s.complete]
    return GameLine(found[0], computed[0] if computed else None)


def game_has_result(*, game_id: int) -> bool:
    return Game.objects.filter(pk=game_id).exclude(winner="").exists()


def games_of_person(*, person: Person, public: bool = True) -> list[Game]:
    """The games a person played (any pair, any event), oldest first."""
    q = Q()
    for side in ("pair_yb", "pair_rg"):
        for player in ("player_1", "player_2"):
            q |= Q(**{f"{side}__{player}__person": person})
    return _games(Game.objects.filter(q), public=public)


def side_of(game: Game, person: Person) -> str:
    """ "YB" or "RG": the side the person played in ``game``."""
    return "YB" if person.pk in {p.person_id for p in game.pair_yb.players} else "RG"


def seat_of(game: Game, person: Person) -> str:
    """The seat (Y, R, B, G) the person played in ``game``: a pair's player 1 sits at
    its first colour (``games.selectors.game_players``); a singles entrant sits at Y or R."""
    seats = {
        "Y": game.pair_yb.player_1, "B": game.pair_yb.player_2,
        "R": game.pair_rg.player_1, "G": game.pair_rg.player_2,
    }  # fmt: skip
    return next(seat for seat, player in seats.items() if player and player.person_id == person.pk)


@dataclass
class PersonGame:
    game: Game
    side: str
    won: bool
    stats: GameStats | None
    seat: str = ""
    # The pairs as a page about the person may write them: other players only if
    # public (``people.selectors_public.PublicNames``).
    own_name: str = ""
    other_name: str = ""

    @property
    def own_pair(self) -> Any:
        return self.game.pair_yb if self.side == "YB" else self.game.pair_rg

    @property
    def other_pair(self) -> Any:
        return self.game.pair_rg if self.side == "YB" else self.game.pair_yb


@dataclass
class PersonStats:
    games: list[PersonGame]
    summary: Summary
    hits_given: int
    hits_taken: int
    comebacks: int
    # The cards the person played, per kind, in the games with a validated log.
    cards: dict[str, int]

    @property
    def wins(self) -> int:
        return sum(g.won for g in self.games)


def person_stats(*, person: Person) -> PersonStats:
    """A player's games in published events, with their side's numbers from the logs."""
    games = games_of_person(person=person)
    computed = {s.game_id: s for s in stats_of_games(games) if s.complete}
    names = public_names(pairs=[pair for g in games for pair in (g.pair_yb, g.pair_rg)])
    rows = []
    for game in games:
        side = side_of(game, person)
        seat = seat_of(game, person)
        row = PersonGame(game, side, game.winner == side, computed.get(game.pk), seat)
        row.own_name, row.other_name = names.pair(row.own_pair), names.pair(row.other_pair)
        rows.append(row)
    logged = [r for r in rows if r.stats is not None]
    cards = dict.fromkeys(CARDS, 0)
    for r in logged:
        for card, n in r.stats.cards_by_seat[r.seat].items():  # type: ignore[union-attr]
            cards[card] += n
    return PersonStats(
        games=rows,
        summary=summarise(computed.values()),
        hits_given=sum(r.stats.hits_given[r.side] for r in logged if r.stats),
        hits_taken=sum(r.stats.hits_taken[r.side] for r in logged if r.stats),
        comebacks=sum(1 for r in logged if r.stats and r.stats.comeback and r.won),
        cards=cards,
    )
