"""The qualification ranking on plain data: no ORM, so it is tested directly.

An *entry* is a season pair: the same two people, whatever the pair was
called in each event (``season.selectors`` builds the keys from ``people``).
Each qualifier contributes its final placings. Two methods:

* ``top_n``: the best ``qualifiers_per_event`` pairs of each qualifier, in
  calendar order. With ``pass_down`` a pair that has already qualified is
  skipped, so its place goes to the next pair of that qualifier; without it,
  the place is simply used up. Pairs sharing the place at the cut all qualify.
* ``points``: each placing scores ``points_table[place - 1]`` (0 beyond the
  table); the ``best_results`` best scores count. The top ``final_places``
  qualify; pairs sharing the place at the cut all qualify.

Ties in the ranking are broken by the season's ``tiebreak``: ``countback``
(more first places, then more second places, …) or ``latest`` (the better
placing in the most recent qualifier, then the one before, …). Pairs equal on
every count share their rank.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

TOP_N = "top_n"
POINTS = "points"
COUNTBACK = "countback"
LATEST = "latest"
_NO_PLACE = 10**6  # worse than any real placing, for missing results


@dataclass(frozen=True)
class Placing:
    entry: Hashable
    place: int


@dataclass(frozen=True)
class EventResult:
    """One qualifier's final placings (best first). ``order``: calendar position."""

    event_id: int
    order: int
    finished: bool
    placings: Sequence[Placing]


@dataclass(frozen=True)
class Rules:
    method: str = TOP_N
    qualifiers_per_event: int = 4
    pass_down: bool = True
    points_table: Sequence[int] = ()
    best_results: int = 3
    final_places: int = 16
    tiebreak: str = COUNTBACK


@dataclass(frozen=True)
class Result:
    event_id: int
    place: int
    points: int
    counted: bool


@dataclass
class RankingRow:
    entry: Hashable
    rank: int = 0
    shared_rank: bool = False
    points: int = 0
    results: dict[int, Result] = field(default_factory=dict)
    qualified: bool = False
    # top_n: the qualifier the pair qualified from.
    qualified_in: int | None = None
    # Qualified only because it shares the place at the cut.
    tied_at_cut: bool = False
    # A result comes from a qualifier that is not finished yet.
    provisional: bool = False

    @property
    def best_place(self) -> int:
        return min((r.place for r in self.results.values()), default=_NO_PLACE)


def _score(place: int, table: Sequence[int]) -> int:
    return table[place - 1] if 1 <= place <= len(table) else 0


def _rows(events: Sequence[EventResult], rules: Rules) -> dict[Hashable, RankingRow]:
    rows: dict[Hashable, RankingRow] = {}
    for event in events:
        for placing in event.placings:
            row = rows.setdefault(placing.entry, RankingRow(entry=placing.entry))
            points = _score(placing.place, rules.points_table)
            row.results[event.event_id] = Result(event.event_id, placing.place, points, False)
            row.provisional |= not event.finished
    for row in rows.values():
        best = sorted(row.results.values(), key=lambda r: (-r.points, r.place, r.event_id))
        counted = {r.event_id for r in best[: rules.best_results]}
        row.results = {
            event_id: Result(r.event_id, r.place, r.points, event_id in counted)
            for event_id, r in row.results.items()
        }
        row.points = sum(r.points for r in row.results.values() if r.counted)
    return rows


def _tiebreak_key(row: RankingRow, rules: Rules, newest_first: list[int]) -> tuple[int, ...]:
    if rules.tiebreak == LATEST:
        return tuple(row.results[e].place if e in row.results else _NO_PLACE for e in newest_first)
    places = sorted(r.place for r in row.results.values())
    # Longest list in the season: a pair with an extra result beats one without.
    return tuple(places + [_NO_PLACE] * (len(newest_first) - len(places)))


def _top_n(events: Sequence[EventResult], rows: dict[Hashable, RankingRow], rules: Rules) -> None:
    quota = rules.qualifiers_per_event
    for event in sorted(events, key=lambda e: e.order):
        taken: list[Hashable] = []
        last_place: int | None = None
        for placing in sorted(event.placings, key=lambda p: p.place):
            at_cut = len(taken) >= quota
            if at_cut and placing.place != last_place:
                break
            row = rows[placing.entry]
            if row.qualified and rules.pass_down:
                continue
            if not row.qualified:
                row.qualified, row.qualified_in = True, event.event_id
            taken.append(placing.entry)
            if at_cut:
                # Shares the place at the cut: it and the pairs it ties with qualify.
                for entry in taken:
                    tied = rows[entry]
                    same_place = tied.results[event.event_id].place == last_place
                    if same_place and tied.qualified_in == event.event_id:
                        tied.tied_at_cut = True
            last_place = placing.place


def _by_points_cut(ranked: list[RankingRow], rules: Rules) -> None:
    if not ranked:
        return
    cut = ranked[min(rules.final_places, len(ranked)) - 1].rank
    beyond = len(ranked) > rules.final_places and ranked[rules.final_places].rank == cut
    for row in ranked:
        if row.rank <= cut:
            row.qualified = True
            row.tied_at_cut = beyond and row.rank == cut


def qualification_ranking(events: Sequence[EventResult], rules: Rules) -> list[RankingRow]:
    """Every entry with a placing in a qualifier, best first, qualified ones marked."""
    rows = _rows(events, rules)
    newest_first = [e.event_id for e in sorted(events, key=lambda e: e.order, reverse=True)]
    if rules.method == TOP_N:
        _top_n(events, rows, rules)

        def key(row: RankingRow) -> tuple[object, ...]:
            return (not row.qualified, row.best_place, _tiebreak_key(row, rules, newest_first))
    else:

        def key(row: RankingRow) -> tuple[object, ...]:
            return (-row.points, _tiebreak_key(row, rules, newest_first))

    ranked = sorted(rows.values(), key=lambda r: (key(r), repr(r.entry)))
    previous: tuple[object, ...] | None = None
    for position, row in enumerate(ranked, start=1):
        current = key(row)
        if current == previous:
            row.rank = ranked[position - 2].rank
            row.shared_rank = ranked[position - 2].shared_rank = True
        else:
            row.rank = position
        previous = current
    if rules.method == POINTS:
        _by_points_cut(ranked, rules)
    return ranked
