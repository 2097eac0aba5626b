"""The end of an event, and where every pair stands: one module, two readings.

``final_results`` is the podium the public final page and the results PDF
show. With a knockout, the bracket decides the top places: the final's
winner and loser are 1 and 2; the third-place game decides 3 and 4, or
without one both semi-final losers share 3; losers of earlier rounds share
the places their round covers (quarter-final losers 5=, …). Every other
pair follows in the order of the Swiss standings. Without a knockout the
Swiss standings are the final standings, shared ranks shared places. The
event is finished when the final (and third-place game) has a winner, or,
without a knockout, when every Swiss round is paired and has a result at
every table.

``event_placings`` is what a season counts (season points need one place
per pair): pairs knocked out in the same round are ordered by their Swiss
rank, so every knockout place is distinct; pairs fully tied in the Swiss
standings share their place. It has places while the event is under way
(a season's table shows them), and calls the event finished once every
round is closed and the final (or, without a knockout, the last Swiss
round) is among them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from competition.selectors import (
    bracket_for_tournament,
    knockout_results,
    knockout_stage_names,
    rounds_for_tournament,
)
from competition.selectors import standings_for_tournament as swiss_standings
from games.models import Game
from tournament.models import Pair, Round, Tournament


@dataclass(frozen=True)
class FinalPlace:
    place: int
    shared: bool
    pair: Pair
    how_en: str  # how the place was decided, e.g. "Won the final", "Swiss rank 9"
    how_da: str


@dataclass
class FinalResults:
    finished: bool
    places: list[FinalPlace] = field(default_factory=list)

    @property
    def podium(self) -> list[FinalPlace]:
        return [p for p in self.places if p.place <= 3]

    @property
    def champions(self) -> list[FinalPlace]:
        """The pair in first place (several only when they share it, a Swiss tie)."""
        return [p for p in self.places if p.place == 1]


def _knockout_places(tournament: Tournament) -> tuple[bool, list[FinalPlace]]:
    rounds = bracket_for_tournament(tournament=tournament)
    final = rounds[-1] if rounds else None
    if final is None or final.round.bracket_matches != 1:
        return False, []
    if any(m.game is not None and m.winner is None for m in final.matches):
        return False, []
    places: list[FinalPlace] = []
    for match in final.matches:
        if match.winner is None or match.pair_a is None or match.pair_b is None:
            continue
        loser = match.pair_b if match.winner.pk == match.pair_a.pk else match.pair_a
        top = 3 if match.is_third_place else 1
        game_en, game_da = (
            ("the third-place game", "bronzekampen") if match.is_third_place
            else ("the final", "finalen")
        )  # fmt: skip
        places.append(FinalPlace(top, False, match.winner, f"Won {game_en}", f"Vandt {game_da}"))
        places.append(FinalPlace(top + 1, False, loser, f"Lost {game_en}", f"Tabte {game_da}"))
    placed = {p.pair.pk for p in places}
    # Losers of the earlier rounds, latest first: semi-final losers share 3
    # (no third-place game), quarter-final losers 5, and so on.
    for knockout_round in reversed(rounds[:-1]):
        matches = knockout_round.round.bracket_matches or 0
        name_en, name_da = knockout_stage_names(matches)
        for match in knockout_round.matches:
            if match.game is None or match.winner is None or match.pair_a is None:
                continue
            out = match.pair_b if match.winner.pk == match.pair_a.pk else match.pair_a
            if out is None or out.pk in placed:
                continue
            placed.add(out.pk)
            places.append(
                FinalPlace(
                    matches + 1, matches > 1, out,
                    f"Out in the {name_en.lower()}", f"Ude i {name_da.lower()}",
                )
            )  # fmt: skip
    return True, places


def _swiss_finished(tournament: Tournament) -> bool:
    swiss = tournament.rounds.filter(kind=Round.Kind.SWISS)
    statuses = list(swiss.values_list("status", flat=True))
    return (
        bool(statuses)
        and len(statuses) >= tournament.swiss_rounds
        and Round.Status.DRAFT not in statuses
        and not Game.objects.filter(round__in=swiss, winner="").exists()
    )


def final_results(*, tournament: Tournament) -> FinalResults:
    """The final standings once the event is finished (``finished`` False before)."""
    if tournament.knockout_size:
        finished, places = _knockout_places(tournament)
    else:
        finished, places = _swiss_finished(tournament), []
    if not finished:
        return FinalResults(finished=False)
    placed = {p.pair.pk for p in places}
    offset = len(places)
    previous_rank, place = None, 0
    rows = [r for r in swiss_standings(tournament=tournament) if r.pair_id not in placed]
    for index, row in enumerate(rows):
        if row.rank != previous_rank:
            place = offset + index + 1
        previous_rank = row.rank
        places.append(
            FinalPlace(
                place, row.shared_rank, row.pair,
                f"Swiss rank {row.rank}{'=' if row.shared_rank else ''}",
                f"Nr. {row.rank}{'=' if row.shared_rank else ''} efter Monrad-runderne",
            )
        )  # fmt: skip
    places.sort(key=lambda p: (p.place, p.pair.start_number))
    # Places shared by several pairs are marked as such (semi-final losers, a Swiss tie).
    counts: dict[int, int] = {}
    for p in places:
        counts[p.place] = counts.get(p.place, 0) + 1
    places = [FinalPlace(p.place, counts[p.place] > 1, p.pair, p.how_en, p.how_da) for p in places]
    return FinalResults(finished=True, places=places)


# --------------------------------------------------------------------------
# The placings a season counts


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
    standings = swiss_standings(tournament=tournament)
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
