"""A tournament's final placings, from its knockout and its Swiss standings.

Read-only, from the tournament app's public selectors. The knockout decides
the top: the final's winner is first, its loser second, then the
third-place game (or, without one, the semi-final losers), and so on down
the bracket; pairs knocked out in the same round are ordered by their Swiss
rank, so every knockout place is distinct. Everyone else follows in Swiss
order; pairs fully tied in the standings share their place.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournament.models import Pair, Round, Tournament
from tournament.selectors import knockout_results, rounds_for_tournament, standings_for_tournament


@dataclass(frozen=True)
class EventPlace:
    pair: Pair
    place: int
    shared: bool = False


@dataclass(frozen=True)
class EventPlacings:
    places: list[EventPlace]
    started: bool
    finished: bool


def _finished(tournament: Tournament, rounds: list[Round]) -> bool:
    if not rounds or any(r.status != Round.Status.CLOSED for r in rounds):
        return False
    last = rounds[-1]
    if last.kind == Round.Kind.KNOCKOUT:
        return last.bracket_matches == 1
    swiss = sum(1 for r in rounds if r.kind == Round.Kind.SWISS)
    return not tournament.knockout_size and swiss >= tournament.swiss_rounds


def _knockout_keys(tournament: Tournament) -> dict[int, tuple[int, bool, bool]]:
    """Per pair in the bracket: (deepest stage, in the third-place game, lost there)."""
    reached: dict[int, tuple[int, bool, bool]] = {}
    for line in sorted(knockout_results(tournament=tournament), key=lambda r: r.stage):
        for pair in (line.pair_a, line.pair_b):
            if pair is not None:
                lost = line.winner is not None and line.winner != pair
                reached[pair] = (line.stage, line.third_place, lost)
    return reached


def event_placings(*, tournament: Tournament) -> EventPlacings:
    """Every pair that played (a game or a bye) with its place, best first."""
    rounds = list(rounds_for_tournament(tournament=tournament))
    standings = standings_for_tournament(tournament=tournament)
    rows = [r for r in standings if r.games_played or r.byes]
    swiss_index = {row.pair_id: k for k, row in enumerate(rows)}
    knockout = _knockout_keys(tournament)
    pairs = {row.pair_id: row.pair for row in standings}
    missing = set(knockout) - set(pairs)
    if missing:  # a knockout without Swiss rounds: its pairs are not in the standings
        pairs.update(Pair.objects.select_related("player_1", "player_2").in_bulk(missing))
    top = sorted(
        knockout,
        key=lambda pk: (
            -knockout[pk][0],
            knockout[pk][1],
            knockout[pk][2],
            swiss_index.get(pk, 10**6),
        ),
    )
    places = [EventPlace(pair=pairs[pk], place=k) for k, pk in enumerate(top, start=1)]
    previous = None
    for row in rows:
        if row.pair_id in knockout:
            continue
        if previous is not None and row.shared_rank and previous[0].rank == row.rank:
            place = EventPlace(pair=row.pair, place=previous[1].place, shared=True)
            if not previous[1].shared:
                places[-1] = EventPlace(pair=previous[1].pair, place=previous[1].place, shared=True)
        else:
            place = EventPlace(pair=row.pair, place=len(places) + 1)
        places.append(place)
        previous = (row, place)
    return EventPlacings(
        places=places, started=bool(rounds), finished=_finished(tournament, rounds)
    )
