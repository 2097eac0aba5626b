"""The end of an event: the champion, the podium and the final standings.

With a knockout, the bracket decides the top places: the final's winner and
loser are 1 and 2; the third-place game decides 3 and 4, or without one both
semi-final losers share 3; losers of earlier rounds share the places their
round covers (quarter-final losers 5=, …). Every other pair follows in the
order of the Swiss standings. Without a knockout the Swiss standings are the
final standings, shared ranks shared places. The event is finished when the
final (and third-place game) has a winner, or, without a knockout, when
every Swiss round is paired and has a result at every table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.models import Game
from tournament.models import Pair, Round, Tournament
from tournament.selectors import bracket_for_tournament, knockout_stage_names
from tournament.selectors import standings_for_tournament as swiss_standings


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
                f"Nr. {row.rank}{'=' if row.shared_rank else ''} efter de schweiziske runder",
            )
        )  # fmt: skip
    places.sort(key=lambda p: (p.place, p.pair.start_number))
    # Places shared by several pairs are marked as such (semi-final losers, a Swiss tie).
    counts: dict[int, int] = {}
    for p in places:
        counts[p.place] = counts.get(p.place, 0) + 1
    places = [FinalPlace(p.place, counts[p.place] > 1, p.pair, p.how_en, p.how_da) for p in places]
    return FinalResults(finished=True, places=places)
