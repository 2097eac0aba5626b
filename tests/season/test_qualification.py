"""The qualification ranking on plain data: top N per qualifier and points tables,
ties at the cut, a pair that qualifies in two events, the tiebreaks."""

from __future__ import annotations

from season.qualification import (
    COUNTBACK,
    LATEST,
    POINTS,
    TOP_N,
    EventResult,
    Placing,
    Rules,
    qualification_ranking,
)


def event(
    event_id: int, order: int, *entries: str, places: list[int] | None = None, finished: bool = True
) -> EventResult:
    places = places or list(range(1, len(entries) + 1))
    return EventResult(
        event_id=event_id,
        order=order,
        finished=finished,
        placings=[Placing(entry, place) for entry, place in zip(entries, places, strict=True)],
    )


def qualified(rows) -> list[str]:
    return [r.entry for r in rows if r.qualified]


def by_entry(rows):
    return {r.entry: r for r in rows}


def test_top_n_takes_the_best_pairs_of_each_qualifier_in_calendar_order():
    events = [event(1, 0, "A", "B", "C", "D"), event(2, 1, "E", "F", "G")]
    rows = qualification_ranking(events, Rules(method=TOP_N, qualifiers_per_event=2))
    assert set(qualified(rows)) == {"A", "B", "E", "F"}
    assert by_entry(rows)["E"].qualified_in == 2
    # Qualified first, by best placing: the two winners share rank 1 on count-back.
    assert [r.entry for r in rows][:4] in (["A", "E", "B", "F"], ["E", "A", "B", "F"])
    assert rows[0].rank == rows[1].rank == 1 and rows[0].shared_rank


def test_a_pair_qualifying_in_two_events_passes_its_place_down():
    events = [event(1, 0, "A", "B", "C"), event(2, 1, "A", "D", "E")]
    rows = qualification_ranking(events, Rules(method=TOP_N, qualifiers_per_event=2))
    # A qualified in event 1; in event 2 its place goes to the next pair (E).
    assert set(qualified(rows)) == {"A", "B", "D", "E"}
    assert by_entry(rows)["A"].qualified_in == 1
    assert by_entry(rows)["E"].qualified_in == 2
    assert len([r for r in rows if r.entry == "A"]) == 1  # one row per season pair


def test_without_pass_down_a_second_qualification_uses_up_the_place():
    events = [event(1, 0, "A", "B", "C"), event(2, 1, "A", "D", "E")]
    rows = qualification_ranking(
        events, Rules(method=TOP_N, qualifiers_per_event=2, pass_down=False)
    )
    assert set(qualified(rows)) == {"A", "B", "D"}


def test_top_n_tie_at_the_cut_qualifies_every_pair_sharing_the_place():
    # Three places to take, placings 1, 2, 3=, 3=: both pairs sharing third qualify.
    events = [event(1, 0, "A", "B", "C", "D", places=[1, 2, 3, 3])]
    rows = qualification_ranking(events, Rules(method=TOP_N, qualifiers_per_event=3))
    assert set(qualified(rows)) == {"A", "B", "C", "D"}
    assert by_entry(rows)["C"].tied_at_cut and by_entry(rows)["D"].tied_at_cut
    assert not by_entry(rows)["B"].tied_at_cut
    # Two places: the cut falls between 2 and 3=, no tie there.
    rows = qualification_ranking(events, Rules(method=TOP_N, qualifiers_per_event=2))
    assert set(qualified(rows)) == {"A", "B"}
    assert not any(r.tied_at_cut for r in rows)


def test_points_count_the_best_results_only():
    table = (10, 6, 4, 2)
    events = [
        event(1, 0, "A", "B", "C"),
        event(2, 1, "B", "A", "C"),
        event(3, 2, "C", "B", "A"),
    ]
    rows = qualification_ranking(
        events, Rules(method=POINTS, points_table=table, best_results=2, final_places=2)
    )
    table_rows = by_entry(rows)
    # A: 10, 6, 4 -> best two 16; B: 6, 10, 6 -> 16; C: 4, 4, 10 -> 14.
    assert table_rows["A"].points == 16 and table_rows["B"].points == 16
    assert table_rows["C"].points == 14
    counted = [r.event_id for r in table_rows["A"].results.values() if r.counted]
    assert sorted(counted) == [1, 2]
    # Tied on 16: count-back (A: 1, 2, 3 against B: 1, 2, 2) puts B first.
    assert [r.entry for r in rows] == ["B", "A", "C"]
    assert qualified(rows) == ["B", "A"]


def test_points_beyond_the_table_score_nothing_but_the_pair_is_ranked():
    rows = qualification_ranking(
        [event(1, 0, "A", "B", "C")],
        Rules(method=POINTS, points_table=(5,), best_results=1, final_places=2),
    )
    assert [(r.entry, r.points) for r in rows] == [("A", 5), ("B", 0), ("C", 0)]
    # B and C are level on everything but their placing (count-back separates them).
    assert rows[1].rank == 2 and rows[2].rank == 3


def test_latest_tiebreak_prefers_the_better_placing_in_the_most_recent_qualifier():
    events = [event(1, 0, "A", "B"), event(2, 1, "B", "A")]
    rules = Rules(method=POINTS, points_table=(3, 1), best_results=2, final_places=1)
    countback = qualification_ranking(events, rules)
    assert countback[0].shared_rank and countback[1].shared_rank  # 1+2 vs 2+1
    latest = qualification_ranking(events, Rules(**{**rules.__dict__, "tiebreak": LATEST}))
    assert [r.entry for r in latest] == ["B", "A"]
    assert qualified(latest) == ["B"]
    assert rules.tiebreak == COUNTBACK


def test_points_tie_at_the_cut_qualifies_all_sharing_the_last_place():
    events = [event(1, 0, "A", "B", "C", "D"), event(2, 1, "A", "C", "B", "D")]
    # A 20; B 6+2 = 8; C 2+6 = 8, B and C tie on count-back too (2, 3 each).
    rules = Rules(method=POINTS, points_table=(10, 6, 2), best_results=2, final_places=2)
    rows = qualification_ranking(events, rules)
    assert set(qualified(rows)) == {"A", "B", "C"}
    assert by_entry(rows)["B"].tied_at_cut and by_entry(rows)["C"].tied_at_cut
    assert not by_entry(rows)["A"].tied_at_cut
    assert by_entry(rows)["B"].rank == by_entry(rows)["C"].rank == 2


def test_results_of_an_unfinished_qualifier_are_provisional():
    events = [event(1, 0, "A", "B"), event(2, 1, "C", "A", finished=False)]
    rows = by_entry(qualification_ranking(events, Rules(method=TOP_N, qualifiers_per_event=1)))
    assert rows["A"].provisional and rows["C"].provisional
    assert not rows["B"].provisional


def test_a_season_without_results_has_an_empty_ranking():
    assert qualification_ranking([], Rules(method=POINTS, points_table=(1,))) == []
