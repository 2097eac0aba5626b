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
from tournament.selectors import (
    bracket_for_tournament,
    rounds_for_tournament,
    standings_for_tournament,
)


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


def _knockout_keys(tournament: Tournament) -> dict[int, tuple[int, bool, bool, Pair]]:
    """Per pair in the bracket: (deepest stage, in the third-place game, lost there, pair)."""
    reached: dict[int, tuple[int, bool, bool, Pair]] = {}
    for bracket_round in bracket_for_tournament(tournament=tournament):
        for match in bracket_round.matches:
            for pair in (match.pair_a, match.pair_b):
                if pair is None:
                    continue
                lost = match.winner is not None and match.winner.pk != pair.pk
                reached[pair.pk] = (bracket_round.stage, match.is_third_place, lost, pair)
    return reached


def event_placings(*, tournament: Tournament) -> EventPlacings:
    """Every pair that played (a game or a bye) with its place, best first."""
    rounds = list(rounds_for_tournament(tournament=tournament))
    rows = [r for r in standings_for_tournament(tournament=tournament) if r.games_played or r.byes]
    swiss_index = {row.pair_id: k for k, row in enumerate(rows)}
    knockout = _knockout_keys(tournament)
    top = sorted(
        knockout.items(),
        key=lambda item: (-item[1][0], item[1][1], item[1][2], swiss_index.get(item[0], 10**6)),
    )
    places = [EventPlace(pair=key[3], place=k) for k, (_pk, key) in enumerate(top, start=1)]
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
