"""The pairing computation on plain data: no ORM, no Django.

``pair_round_core`` takes the active pairs in Monrad order (score, then the
tiebreaks, then start number — the standings order) and the set of pairs
that have already met, and returns the tables and the bye. It is what the
``round_pair`` service calls, what the benchmark times and what the property
tests exercise. The objective and its weights are documented in
``docs/pairing.md``; ``pairing_objective`` states it as a plain tuple so tests
can check the matching against brute force.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import rustworkx as rx

SEATS = ("Y", "R", "B", "G")
YB = "YB"
RG = "RG"


@dataclass(frozen=True)
class PairingEntry:
    """One active pair as the pairing sees it."""

    pair_id: int
    points: int = 0
    start_number: int = 0
    # Swiss byes so far: the bye goes to a pair with the fewest.
    byes: int = 0
    # Colours played so far ("YB"/"RG"), oldest first.
    colours: tuple[str, ...] = ()
    fixed_table: int | None = None
    # How warnings name the pair (e.g. "Anne & Bo"); the start number is always given.
    name: str = ""

    @property
    def label(self) -> str:
        return f"#{self.start_number} {self.name}".strip()


@dataclass(frozen=True)
class Table:
    table_number: int
    pair_yb: int
    pair_rg: int
    first_dealer: str
    rematch: bool
    explanation_en: str
    explanation_da: str


@dataclass
class PairingResult:
    tables: list[Table]
    bye: int | None
    rematches: int
    warnings: list[dict[str, str]] = field(default_factory=list)


def _played_key(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


# --------------------------------------------------------------------------
# The objective


@dataclass(frozen=True)
class Weights:
    """The integer cost levels, derived from the field so they stay exact.

    Lexicographic order: rematches, then where the bye falls, then quality.
    Each level's unit is larger than the largest possible sum of every level
    below it, so one scalar sum ranks matchings exactly lexicographically.
    """

    score_k: int
    bye_step: int
    rematch: int

    @classmethod
    def for_field(cls, entries: Sequence[PairingEntry]) -> Weights:
        n = max(len(entries), 2)
        points = [e.points for e in entries] or [0]
        max_diff = max(points) - min(points)
        # One point of score difference squared outweighs any rank distance
        # on the same table.
        score_k = (n - 1) ** 2 + 1
        edge_quality_max = score_k * max_diff**2 + (n - 1) ** 2
        quality_total = edge_quality_max * (n // 2 + 1) + 1
        bye_step = quality_total
        bye_total = bye_step * (n + 1)
        return cls(score_k=score_k, bye_step=bye_step, rematch=bye_total + quality_total)


def edge_quality(entries: Sequence[PairingEntry], i: int, j: int, weights: Weights) -> int:
    """Cost of seating the pairs at Monrad positions ``i`` and ``j`` together."""
    diff = entries[i].points - entries[j].points
    return weights.score_k * diff * diff + (i - j) ** 2


def bye_rank_cost(entries: Sequence[PairingEntry], i: int) -> int:
    """How many bye candidates rank below position ``i`` (0 = the right one).

    Candidates are the pairs with the fewest byes so far (at first: the pairs
    without one), so byes go round the field before any pair gets another.
    """
    eligible = _bye_candidates(entries)
    return sum(1 for k in eligible if k > i)


def _bye_candidates(entries: Sequence[PairingEntry]) -> list[int]:
    fewest = min((e.byes for e in entries), default=0)
    return [k for k, e in enumerate(entries) if e.byes == fewest]


def pairing_objective(
    entries: Sequence[PairingEntry],
    played: set[frozenset[int]],
    couples: Iterable[tuple[int, int]],
    bye: int | None,
) -> tuple[int, int, int]:
    """(rematches, bye rank cost, quality) of a pairing given as Monrad positions."""
    weights = Weights.for_field(entries)
    rematches = quality = 0
    for i, j in couples:
        if _played_key(entries[i].pair_id, entries[j].pair_id) in played:
            rematches += 1
        quality += edge_quality(entries, i, j, weights)
    bye_cost = bye_rank_cost(entries, bye) if bye is not None else 0
    return rematches, bye_cost, quality


# Each pair is first offered only the opponents within this many places in
# Monrad order; ``_match`` proves the result optimal for the full graph or
# widens the graph until it is (see docs/pairing.md, "Speed").
SPARSE_WINDOW = 16


def _edge_arrays(
    entries: Sequence[PairingEntry], played: set[frozenset[int]], *, allow_rematches: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every allowed edge as (i, j, cost) arrays over Monrad positions; the
    bye, when the field is odd, is node ``len(entries)``."""
    n = len(entries)
    weights = Weights.for_field(entries)
    points = np.array([e.points for e in entries], dtype=np.int64)
    left, right = np.triu_indices(n, 1)
    diff = points[left] - points[right]
    cost = weights.score_k * diff * diff + (right - left).astype(np.int64) ** 2
    index = {e.pair_id: k for k, e in enumerate(entries)}
    met = sorted(
        (min(index[a], index[b]), max(index[a], index[b]))
        for a, b in (tuple(key) for key in played if len(key) == 2)
        if a in index and b in index
    )
    keep = np.ones(len(left), dtype=bool)
    if met:
        rows = np.array(met, dtype=np.int64)
        # Position of (i, j) in numpy's row-major upper triangle.
        flat = rows[:, 0] * n - rows[:, 0] * (rows[:, 0] + 1) // 2 + rows[:, 1] - rows[:, 0] - 1
        if allow_rematches:
            cost[flat] += weights.rematch
        else:
            keep[flat] = False
    left, right, cost = left[keep], right[keep], cost[keep]
    if n % 2:
        candidates = _bye_candidates(entries)
        bye_cost = [weights.bye_step * (len(candidates) - 1 - k) for k in range(len(candidates))]
        left = np.concatenate([left, np.array(candidates, dtype=left.dtype)])
        right = np.concatenate([right, np.full(len(candidates), n, dtype=right.dtype)])
        cost = np.concatenate([cost, np.array(bye_cost, dtype=np.int64)])
    return left, right, cost


def _solve(
    nodes: int, left: np.ndarray, right: np.ndarray, cost: np.ndarray, chosen: np.ndarray
) -> tuple[list[tuple[int, int]], int, bool]:
    """Minimum-cost maximum-cardinality matching on the chosen edges."""
    graph = rx.PyGraph()
    graph.add_nodes_from(range(nodes))
    sub_cost = cost[chosen]
    top = int(sub_cost.max()) + 1 if len(sub_cost) else 1
    # With max_cardinality every complete matching has the same number of
    # edges, so maximising sum(top - cost) is minimising the total cost.
    graph.add_edges_from(
        list(
            zip(
                left[chosen].tolist(),
                right[chosen].tolist(),
                (top - sub_cost).tolist(),
                strict=True,
            )
        )
    )
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    couples = sorted((min(a, b), max(a, b)) for a, b in matching)
    total = sum(top - graph.get_edge_data(i, j) for i, j in couples)
    return couples, total, len(couples) * 2 == nodes


def _group_cut_bound(
    entries: Sequence[PairingEntry], left: np.ndarray, right: np.ndarray
) -> np.ndarray:
    """Per edge (a, b): a lower bound on any complete matching of the other nodes,
    from the score-group cuts it must cross.

    Cut k separates the k+1 best score groups from the rest. If an odd number
    of nodes lies above it, some table crosses it; crossing costs at least
    w_k = score_k * gap_k**2, and a table crossing several cuts costs at least
    their sum because (g1 + g2)**2 >= g1**2 + g2**2. The bye node counts in the
    group of the lowest bye candidate (any other bye edge costs a bye_step,
    more than every w_k together). Removing a and b flips the parity of the
    cuts between their groups.
    """
    n = len(entries)
    weights = Weights.for_field(entries)
    values = sorted({e.points for e in entries}, reverse=True)
    group_of = {v: k for k, v in enumerate(values)}
    groups = [group_of[e.points] for e in entries]
    if n % 2:
        groups.append(groups[_bye_candidates(entries)[-1]])
    group = np.array(groups, dtype=np.int64)
    cuts = len(values) - 1
    if cuts <= 0:
        return np.zeros(len(left), dtype=np.int64)
    gaps = np.array([values[k] - values[k + 1] for k in range(cuts)], dtype=np.int64)
    w = weights.score_k * gaps * gaps
    above = np.cumsum(np.bincount(group, minlength=len(values)))[:cuts]
    odd = above % 2 == 1
    forced = int(w[odd].sum())
    flip = np.concatenate([[0], np.cumsum(np.where(odd, -w, w))])
    low = np.minimum(group[left], group[right])
    high = np.maximum(group[left], group[right])
    bound: np.ndarray = forced + flip[high] - flip[low]
    return bound


def _certified_edges(
    entries: Sequence[PairingEntry],
    left: np.ndarray,
    right: np.ndarray,
    cost: np.ndarray,
    found_cost: int,
) -> np.ndarray:
    """Edges that can belong to a complete matching costing at most ``found_cost``.

    Such a matching is c(a, b) plus a complete matching of the other nodes,
    which costs at least the larger of two bounds: every other node v is
    matched by an edge costing at least cmin(v), each edge covering two nodes
    (so (S - cmin(a) - cmin(b)) / 2 with S = sum of cmin); and the score-group
    cut bound above. Edges whose cost plus bound exceeds ``found_cost`` cannot
    be in an optimum.
    """
    nodes = len(entries) + len(entries) % 2
    cmin = np.full(nodes, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(cmin, left, cost)
    np.minimum.at(cmin, right, cost)
    total = int(cmin.sum())
    by_nodes = (total - cmin[left] - cmin[right]) // 2
    bound = np.maximum(by_nodes, _group_cut_bound(entries, left, right))
    certified: np.ndarray = cost + bound <= found_cost
    return certified


def _match(
    entries: Sequence[PairingEntry],
    played: set[frozenset[int]],
    *,
    allow_rematches: bool,
    window: int | None = None,
) -> tuple[list[tuple[int, int]], int | None, bool]:
    """One minimum-cost complete matching over the Monrad positions.

    Returns (couples, bye position, complete). Without ``allow_rematches``
    the edges of earlier meetings do not exist at all.
    """
    n = len(entries)
    nodes = n + (n % 2)
    window = SPARSE_WINDOW if window is None else window
    left, right, cost = _edge_arrays(entries, played, allow_rematches=allow_rematches)
    everything = np.ones(len(left), dtype=bool)
    near = ((right - left) <= window) | (right == n)
    couples, total, complete = _solve(nodes, left, right, cost, near)
    if complete:
        certified = _certified_edges(entries, left, right, cost, total)
        if (certified & ~near).any():
            couples, total, complete = _solve(nodes, left, right, cost, certified | near)
    else:
        couples, total, complete = _solve(nodes, left, right, cost, everything)
    bye = next((i for i, j in couples if j == n), None)
    return [(i, j) for i, j in couples if j != n], bye, complete


# --------------------------------------------------------------------------
# Colours, dealers, table numbers, explanations


def _colour_balance(entry: PairingEntry) -> int:
    return entry.colours.count(RG) - entry.colours.count(YB)


def assign_colours(a: PairingEntry, b: PairingEntry, rng: random.Random) -> tuple[int, int]:
    """(pair_yb, pair_rg): the pair that has played Red/Green more often gets
    Yellow/Blue; on a tie the pair whose last game was Red/Green; else drawn."""
    balance_a, balance_b = _colour_balance(a), _colour_balance(b)
    if balance_a != balance_b:
        return (a.pair_id, b.pair_id) if balance_a > balance_b else (b.pair_id, a.pair_id)
    last_a = a.colours[-1] if a.colours else ""
    last_b = b.colours[-1] if b.colours else ""
    if last_a != last_b and RG in (last_a, last_b):
        return (a.pair_id, b.pair_id) if last_a == RG else (b.pair_id, a.pair_id)
    return (a.pair_id, b.pair_id) if rng.random() < 0.5 else (b.pair_id, a.pair_id)


def number_tables(
    couples: Sequence[tuple[int, int]], entries: Sequence[PairingEntry]
) -> tuple[list[int], list[dict[str, str]]]:
    """Table numbers for couples (given best first): fixed tables honoured,
    the rest fill the lowest free numbers top board first."""
    numbers: list[int | None] = [None] * len(couples)
    warnings: list[dict[str, str]] = []
    taken: set[int] = set()
    for k, (i, j) in enumerate(couples):
        for pos in (i, j):
            entry = entries[pos]
            fixed = entry.fixed_table
            if fixed is None:
                continue
            if numbers[k] is not None:
                # Both pairs of this table have a fixed table: only one can be honoured.
                other = entries[i if pos == j else j]
                warnings.append(
                    {
                        "code": "fixed_table_conflict",
                        "en": f"{other.label} (fixed table {other.fixed_table}) and "
                        f"{entry.label} (fixed table {fixed}) play each other at table "
                        f"{numbers[k]}; table {fixed} is not kept for {entry.label}.",
                        "da": f"{other.label} (fast bord {other.fixed_table}) og "
                        f"{entry.label} (fast bord {fixed}) spiller mod hinanden ved bord "
                        f"{numbers[k]}; bord {fixed} holdes ikke til {entry.label}.",
                    }
                )
                continue
            if fixed in taken:
                warnings.append(
                    {
                        "code": "fixed_table_conflict",
                        "en": f"Table {fixed} is fixed for more than one pair; "
                        f"{entry.label} was moved.",
                        "da": f"Bord {fixed} er fast bord for mere end ét par; "
                        f"{entry.label} blev flyttet.",
                    }
                )
                continue
            numbers[k] = fixed
            taken.add(fixed)
    next_free = 1
    result: list[int] = []
    for number in numbers:
        if number is None:
            while next_free in taken:
                next_free += 1
            number = next_free
            taken.add(number)
        result.append(number)
    return result, warnings


def _explain(
    entries: Sequence[PairingEntry],
    played: set[frozenset[int]],
    i: int,
    j: int,
    first_round: str | None,
) -> tuple[str, str]:
    a, b = entries[i], entries[j]
    if first_round == "seed":
        return (
            f"Round 1 by seed: seed order {i + 1} against {j + 1} (top half against bottom half).",
            f"Runde 1 efter seedning: nr. {i + 1} mod nr. {j + 1} (øverste halvdel mod nederste).",
        )
    if first_round == "random":
        return (
            f"Round 1 by draw: drawn numbers {i + 1} and {j + 1}.",
            f"Runde 1 ved lodtrækning: lodtrukne numre {i + 1} og {j + 1}.",
        )
    if a.points == b.points:
        en = f"Ranks {i + 1} and {j + 1}, both in the {a.points}-point group."
        da = f"Placering {i + 1} og {j + 1}, begge i {a.points}-pointgruppen."
    else:
        en = (
            f"Ranks {i + 1} ({a.points} points) and {j + 1} ({b.points} points): "
            "paired across score groups."
        )
        da = (
            f"Placering {i + 1} ({a.points} point) og {j + 1} ({b.points} point): "
            "parret på tværs af pointgrupper."
        )
    if _played_key(a.pair_id, b.pair_id) in played:
        en += " REMATCH: these pairs have met before; no complete pairing avoids it."
        da += " OMKAMP: parrene har mødt hinanden før; ingen fuld parring undgår det."
        return en, da
    skipped = [
        k + 1 for k in range(i + 1, j) if _played_key(a.pair_id, entries[k].pair_id) in played
    ]
    if skipped:
        ranks = ", ".join(str(k) for k in skipped)
        en += f" Rematch avoided with rank {ranks}."
        da += f" Omkamp undgået mod placering {ranks}."
    return en, da


# --------------------------------------------------------------------------
# Entry points


def _first_round_couples(
    entries: Sequence[PairingEntry], method: str
) -> tuple[list[tuple[int, int]], int | None]:
    n = len(entries)
    bye = n - 1 if n % 2 else None
    m = n - (n % 2)
    if method == "seed":
        half = m // 2
        return [(k, k + half) for k in range(half)], bye
    return [(k, k + 1) for k in range(0, m, 2)], bye


def pair_round_core(
    entries: Sequence[PairingEntry],
    played: set[frozenset[int]],
    *,
    seed: int,
    first_round: str | None = None,
    seats: Sequence[str] = SEATS,
) -> PairingResult:
    """Pair one round.

    Each table's first dealer is drawn from ``seats`` (the four seats, or Y
    and R when two players sit at a table).

    ``entries`` are the active pairs in Monrad order (best first); for round 1
    in seed order (``first_round="seed"``) or any order (``"random"``: the order
    is drawn from ``seed``). ``played`` holds ``frozenset({pair_id, pair_id})``
    for every earlier meeting. Deterministic for a given ``seed``.
    """
    rng = random.Random(seed)
    entries = list(entries)
    warnings: list[dict[str, str]] = []
    if len(entries) < 2:
        return PairingResult(tables=[], bye=entries[0].pair_id if entries else None, rematches=0)
    if first_round == "random":
        rng.shuffle(entries)
    if first_round in ("seed", "random"):
        couples, bye = _first_round_couples(entries, first_round)
    else:
        couples, bye, complete = _match(entries, played, allow_rematches=False)
        if not complete:
            couples, bye, _ = _match(entries, played, allow_rematches=True)
    rematches = sum(
        1 for i, j in couples if _played_key(entries[i].pair_id, entries[j].pair_id) in played
    )
    if rematches:
        warnings.append(
            {
                "code": "rematch",
                "en": f"No complete pairing avoids rematches: {rematches} table(s) are rematches.",
                "da": f"Ingen fuld parring undgår omkampe: {rematches} bord(e) er omkampe.",
            }
        )
    if bye is not None and entries[bye].byes:
        had = entries[bye].byes
        warnings.append(
            {
                "code": "second_bye",
                "en": f"Every pair has had {had} bye{'s' if had > 1 else ''}; "
                f"{entries[bye].label} gets bye number {had + 1}.",
                "da": f"Alle par har haft {had} oversidning{'er' if had > 1 else ''}; "
                f"{entries[bye].label} får oversidning nr. {had + 1}.",
            }
        )
    couples.sort()
    numbers, table_warnings = number_tables(couples, entries)
    warnings.extend(table_warnings)
    tables: list[Table] = []
    for (i, j), number in zip(couples, numbers, strict=True):
        pair_yb, pair_rg = assign_colours(entries[i], entries[j], rng)
        en, da = _explain(entries, played, i, j, first_round)
        tables.append(
            Table(
                table_number=number,
                pair_yb=pair_yb,
                pair_rg=pair_rg,
                first_dealer=rng.choice(seats),
                rematch=_played_key(entries[i].pair_id, entries[j].pair_id) in played,
                explanation_en=en,
                explanation_da=da,
            )
        )
    tables.sort(key=lambda t: t.table_number)
    return PairingResult(
        tables=tables,
        bye=entries[bye].pair_id if bye is not None else None,
        rematches=rematches,
        warnings=warnings,
    )
