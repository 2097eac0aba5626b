"""The pure pairing computation: rules, optimality against brute force, properties."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.services import pairing_core
from tournament.services.pairing_core import (
    PairingEntry,
    Weights,
    _bye_candidates,
    _edge_arrays,
    _group_cut_bound,
    assign_colours,
    pair_round_core,
    pairing_objective,
)


def entries_from(points: list[int], **kwargs: object) -> list[PairingEntry]:
    """Entries in Monrad order (points descending), pair ids 1..n."""
    ordered = sorted(range(len(points)), key=lambda k: -points[k])
    return [
        PairingEntry(pair_id=k + 1, points=points[k], start_number=k + 1, **kwargs)  # type: ignore[arg-type]
        for k in ordered
    ]


def positions(result, entries):
    index = {e.pair_id: k for k, e in enumerate(entries)}
    couples = [tuple(sorted((index[t.pair_yb], index[t.pair_rg]))) for t in result.tables]
    bye = index[result.bye] if result.bye is not None else None
    return couples, bye


def all_matchings(nodes: list[int]):
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for k, other in enumerate(rest):
        for tail in all_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def brute_force_best(entries, played):
    """The lexicographic optimum (rematches, bye rank, quality) by enumeration."""
    n = len(entries)
    nodes = list(range(n)) + ([n] if n % 2 else [])
    candidates = set(_bye_candidates(entries))
    best = None
    for matching in all_matchings(nodes):
        bye = next((min(a, b) for a, b in matching if max(a, b) == n and n % 2), None)
        if n % 2 and bye not in candidates:
            continue
        couples = [(a, b) for a, b in matching if not (n % 2 and max(a, b) == n)]
        value = pairing_objective(entries, played, couples, bye)
        if best is None or value < best:
            best = value
    return best


def random_history(entries, rng, meetings):
    ids = [e.pair_id for e in entries]
    return {frozenset(rng.sample(ids, 2)) for _ in range(meetings)}


# --------------------------------------------------------------------------
# Plain rules


def test_unconstrained_monrad_pairs_neighbours():
    entries = entries_from([6, 6, 4, 4, 2, 2, 0, 0])
    result = pair_round_core(entries, set(), seed=1)
    couples, bye = positions(result, entries)
    assert couples == [(0, 1), (2, 3), (4, 5), (6, 7)]
    assert bye is None and result.rematches == 0


def test_rematch_is_avoided_by_moving_to_the_next_opponent():
    entries = entries_from([4, 4, 4, 4])
    played = {frozenset((entries[0].pair_id, entries[1].pair_id))}
    result = pair_round_core(entries, played, seed=1)
    couples, _ = positions(result, entries)
    assert couples == [(0, 2), (1, 3)]
    assert result.rematches == 0
    assert "Rematch avoided with rank 2" in result.tables[0].explanation_en


def test_rematch_only_when_no_complete_pairing_avoids_it_and_organiser_is_warned():
    entries = entries_from([2, 2])
    played = {frozenset((1, 2))}
    result = pair_round_core(entries, played, seed=1)
    assert result.rematches == 1
    assert [w["code"] for w in result.warnings] == ["rematch"]
    assert result.tables[0].rematch
    assert "OMKAMP" in result.tables[0].explanation_da


def test_score_groups_stay_together_and_a_floater_meets_the_next_group_top():
    # 3 pairs on 4 points: one must float down; it meets the best 2-point pair.
    entries = entries_from([4, 4, 4, 2, 2, 2, 0, 0])
    result = pair_round_core(entries, set(), seed=1)
    couples, _ = positions(result, entries)
    assert couples == [(0, 1), (2, 3), (4, 5), (6, 7)]
    assert "across score groups" in result.tables[1].explanation_en


def test_bye_goes_to_the_lowest_ranked_pair_without_one():
    entries = entries_from([4, 2, 2, 0, 0])
    last = entries[-1]
    entries[-1] = PairingEntry(pair_id=last.pair_id, points=0, start_number=5, byes=1)
    result = pair_round_core(entries, set(), seed=1)
    assert result.bye == entries[3].pair_id


def test_bye_yields_to_rematch_avoidance():
    # The natural bye (last pair) would force 1-2 again; giving the bye one
    # place higher avoids the rematch.
    entries = entries_from([4, 2, 0])
    played = {frozenset((entries[0].pair_id, entries[1].pair_id))}
    result = pair_round_core(entries, played, seed=1)
    assert result.rematches == 0
    assert result.bye == entries[1].pair_id


def test_second_bye_only_when_everyone_had_one_and_warned():
    entries = [PairingEntry(pair_id=k, points=0, start_number=k, byes=1) for k in (1, 2, 3)]
    result = pair_round_core(entries, set(), seed=1)
    assert result.bye == 3
    assert [w["code"] for w in result.warnings] == ["second_bye"]


def test_byes_go_round_the_field_before_anyone_gets_another():
    # 3 pairs, 7 rounds: the lowest pair used to collect bye after bye (1, 4, 2).
    byes: Counter[int] = Counter()
    points = dict.fromkeys((1, 2, 3), 0)
    for number in range(1, 8):
        order = sorted(points, key=lambda p: (-points[p], p))
        entries = [PairingEntry(pair_id=p, points=points[p], start_number=p, byes=byes[p])
                   for p in order]  # fmt: skip
        result = pair_round_core(entries, set(), seed=number)
        assert byes[result.bye] == min(byes[p] for p in points)
        byes[result.bye] += 1
        points[result.bye] += 2
        points[result.tables[0].pair_yb] += 2  # Yellow/Blue wins
    assert sorted(byes.values()) == [2, 2, 3]


def test_the_bye_goes_to_the_lowest_of_those_with_the_fewest_byes():
    entries = [
        PairingEntry(pair_id=1, points=6, start_number=1, byes=1),
        PairingEntry(pair_id=2, points=4, start_number=2, byes=0),
        PairingEntry(pair_id=3, points=4, start_number=3, byes=0),
        PairingEntry(pair_id=4, points=2, start_number=4, byes=1),
        PairingEntry(pair_id=5, points=0, start_number=5, byes=2),
    ]
    result = pair_round_core(entries, set(), seed=1)
    assert result.bye == 3 and not [w for w in result.warnings if w["code"] == "second_bye"]


def test_another_bye_is_warned_with_the_count():
    entries = [PairingEntry(pair_id=k, start_number=k, byes=2, name=f"Par {k}") for k in (1, 2, 3)]
    result = pair_round_core(entries, set(), seed=1)
    warning = next(w for w in result.warnings if w["code"] == "second_bye")
    assert warning["en"] == "Every pair has had 2 byes; #3 Par 3 gets bye number 3."
    assert warning["da"] == "Alle par har haft 2 oversidninger; #3 Par 3 får oversidning nr. 3."


def test_two_pairs_with_fixed_tables_meeting_is_a_warning_naming_both():
    entries = [
        PairingEntry(pair_id=1, start_number=1, fixed_table=5, name="Anne & Bo"),
        PairingEntry(pair_id=2, start_number=2, fixed_table=3, name="Carl & Dorte"),
        PairingEntry(pair_id=3, start_number=3),
        PairingEntry(pair_id=4, start_number=4),
    ]
    result = pair_round_core(entries, set(), seed=1)
    assert [t.table_number for t in result.tables] == [1, 5]
    assert result.warnings == [
        {
            "code": "fixed_table_conflict",
            "en": "#1 Anne & Bo (fixed table 5) and #2 Carl & Dorte (fixed table 3) play each "
            "other at table 5; table 3 is not kept for #2 Carl & Dorte.",
            "da": "#1 Anne & Bo (fast bord 5) og #2 Carl & Dorte (fast bord 3) spiller mod "
            "hinanden ved bord 5; bord 3 holdes ikke til #2 Carl & Dorte.",
        }
    ]


def test_round_one_by_seed_is_top_half_against_bottom_half():
    entries = [PairingEntry(pair_id=k, start_number=k) for k in range(1, 9)]
    result = pair_round_core(entries, set(), seed=5, first_round="seed")
    pairs = sorted(tuple(sorted((t.pair_yb, t.pair_rg))) for t in result.tables)
    assert pairs == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert {t.table_number for t in result.tables if 1 in (t.pair_yb, t.pair_rg)} == {1}


def test_round_one_random_draw_is_reproducible_from_its_seed():
    entries = [PairingEntry(pair_id=k, start_number=k) for k in range(1, 17)]
    first = pair_round_core(entries, set(), seed=42, first_round="random")
    again = pair_round_core(entries, set(), seed=42, first_round="random")
    other = pair_round_core(entries, set(), seed=43, first_round="random")
    assert first.tables == again.tables
    assert first.tables != other.tables


def test_fixed_table_is_honoured_and_the_rest_fill_top_boards_first():
    entries = entries_from([6, 6, 4, 4, 2, 2])
    low = entries[5]
    entries[5] = PairingEntry(pair_id=low.pair_id, points=low.points, start_number=6, fixed_table=1)
    result = pair_round_core(entries, set(), seed=1)
    by_table = {t.table_number: {t.pair_yb, t.pair_rg} for t in result.tables}
    assert low.pair_id in by_table[1]
    assert {entries[0].pair_id, entries[1].pair_id} == by_table[2]
    assert sorted(by_table) == [1, 2, 3]


def test_colours_go_to_the_pair_that_played_red_green_more_often():
    rng = random.Random(0)
    a = PairingEntry(pair_id=1, colours=("RG", "RG", "YB"))
    b = PairingEntry(pair_id=2, colours=("YB", "YB", "RG"))
    assert assign_colours(a, b, rng) == (1, 2)
    assert assign_colours(b, a, rng) == (1, 2)
    c = PairingEntry(pair_id=3, colours=("YB", "RG"))
    d = PairingEntry(pair_id=4, colours=("RG", "YB"))
    assert assign_colours(c, d, rng) == (3, 4)  # equal balance: last was RG


def test_weights_fit_in_64_bits_for_a_large_field():
    entries = entries_from([random.Random(1).randint(0, 45) for _ in range(600)])
    weights = Weights.for_field(entries)
    worst = weights.rematch + weights.score_k * 45**2 + 600**2
    assert worst * 301 < 2**63


# --------------------------------------------------------------------------
# Optimality: brute force over every complete pairing


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9, 10])
def test_matching_is_optimal_under_the_documented_objective(n):
    rng = random.Random(n)
    for trial in range(4):
        entries = entries_from([rng.randint(0, 4) * 2 for _ in range(n)])
        entries = [
            PairingEntry(
                pair_id=e.pair_id,
                points=e.points,
                start_number=e.start_number,
                byes=int(rng.random() < 0.3),
            )
            for e in entries
        ]
        played = random_history(entries, rng, meetings=n + trial * n)
        result = pair_round_core(entries, played, seed=trial)
        couples, bye = positions(result, entries)
        assert pairing_objective(entries, played, couples, bye) == brute_force_best(entries, played)


@pytest.mark.parametrize("n", [6, 8, 9, 10])
def test_sparse_first_pass_is_widened_until_provably_optimal(n, monkeypatch):
    monkeypatch.setattr(pairing_core, "SPARSE_WINDOW", 1)
    rng = random.Random(100 + n)
    for trial in range(4):
        entries = entries_from([rng.randint(0, 3) * 2 for _ in range(n)])
        played = random_history(entries, rng, meetings=n)
        result = pair_round_core(entries, played, seed=trial)
        couples, bye = positions(result, entries)
        assert pairing_objective(entries, played, couples, bye) == brute_force_best(entries, played)


# --------------------------------------------------------------------------
# Properties over simulated tournaments


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=9),
    rounds=st.integers(min_value=1, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_simulated_rounds_keep_the_pairing_rules(n, rounds, seed):
    rng = random.Random(seed)
    points = dict.fromkeys(range(1, n + 1), 0)
    played: set[frozenset[int]] = set()
    byes: Counter[int] = Counter()
    for number in range(1, rounds + 1):
        order = sorted(points, key=lambda p: (-points[p], p))
        entries = [
            PairingEntry(pair_id=p, points=points[p], start_number=p, byes=byes[p]) for p in order
        ]
        result = pair_round_core(
            entries, played, seed=seed + number, first_round="random" if number == 1 else None
        )
        seated = [p for t in result.tables for p in (t.pair_yb, t.pair_rg)]
        if result.bye is not None:
            seated.append(result.bye)
        # Every pair exactly once.
        assert sorted(seated) == sorted(points)
        # The bye goes to a pair with the fewest byes so far.
        if result.bye is not None:
            assert byes[result.bye] == min(byes[p] for p in points)
            byes[result.bye] += 1
            points[result.bye] += 2
        # No rematch when a complete pairing without one exists.
        if number > 1:
            assert result.rematches == brute_force_best(entries, played)[0]
        assert len({t.table_number for t in result.tables}) == len(result.tables)
        for t in result.tables:
            played.add(frozenset((t.pair_yb, t.pair_rg)))
            points[t.pair_yb if rng.random() < 0.5 else t.pair_rg] += 2


@settings(max_examples=25, deadline=None)
@given(n=st.integers(min_value=10, max_value=40), seed=st.integers(min_value=0, max_value=2**32))
def test_larger_fields_are_complete_and_rematch_free_early_on(n, seed):
    rng = random.Random(seed)
    points = dict.fromkeys(range(1, n + 1), 0)
    played: set[frozenset[int]] = set()
    byes: set[int] = set()
    for _ in range(1, 5):
        order = sorted(points, key=lambda p: (-points[p], p))
        entries = [
            PairingEntry(pair_id=p, points=points[p], start_number=p, byes=int(p in byes))
            for p in order
        ]
        result = pair_round_core(entries, played, seed=seed, first_round=None)
        seated = [p for t in result.tables for p in (t.pair_yb, t.pair_rg)]
        assert sorted(seated + ([result.bye] if result.bye else [])) == sorted(points)
        # Four rounds among 10+ pairs can always avoid rematches.
        assert result.rematches == 0
        assert result.bye is None or result.bye not in byes
        if result.bye:
            byes.add(result.bye)
        for t in result.tables:
            played.add(frozenset((t.pair_yb, t.pair_rg)))
            points[t.pair_yb if rng.random() < 0.5 else t.pair_rg] += 2


@pytest.mark.parametrize("n", [5, 6, 7, 8])
def test_group_cut_bound_never_exceeds_the_true_cost_of_the_rest(n):
    rng = random.Random(7 * n)
    for _ in range(6):
        entries = entries_from([rng.choice([0, 1, 2, 4, 7]) for _ in range(n)])
        entries = [
            PairingEntry(
                pair_id=e.pair_id,
                points=e.points,
                start_number=e.start_number,
                byes=rng.choice((0, 0, 1, 2)),
            )
            for e in entries
        ]
        played = random_history(entries, rng, meetings=n)
        left, right, cost = _edge_arrays(entries, played, allow_rematches=True)
        bounds = _group_cut_bound(entries, left, right)
        edge_cost = {(int(a), int(b)): int(c) for a, b, c in zip(left, right, cost, strict=True)}
        nodes = list(range(n + n % 2))
        for k in range(len(left)):
            a, b = int(left[k]), int(right[k])
            rest = [v for v in nodes if v not in (a, b)]
            best = min(
                (
                    sum(edge_cost.get((min(x, y), max(x, y)), 10**30) for x, y in matching)
                    for matching in all_matchings(rest)
                ),
                default=0,
            )
            assert bounds[k] <= best


@pytest.mark.parametrize("window", [1, 2])
@pytest.mark.parametrize("n", [7, 9, 10])
def test_certificate_with_odd_score_groups_and_byes(n, window, monkeypatch):
    monkeypatch.setattr(pairing_core, "SPARSE_WINDOW", window)
    rng = random.Random(1000 * window + n)
    for trial in range(5):
        entries = entries_from([rng.choice([0, 2, 2, 4, 6]) for _ in range(n)])
        entries = [
            PairingEntry(
                pair_id=e.pair_id,
                points=e.points,
                start_number=e.start_number,
                byes=int(rng.random() < 0.5),
            )
            for e in entries
        ]
        played = random_history(entries, rng, meetings=2 * n)
        result = pair_round_core(entries, played, seed=trial)
        couples, bye = positions(result, entries)
        assert pairing_objective(entries, played, couples, bye) == brute_force_best(entries, played)


def test_a_score_difference_outweighs_any_rank_distance_on_one_table():
    entries = entries_from([2] * 9 + [0])
    weights = Weights.for_field(entries)
    far_same_group = pairing_core.edge_quality(entries, 0, 8, weights)
    near_other_group = pairing_core.edge_quality(entries, 8, 9, weights)
    assert far_same_group < near_other_group
