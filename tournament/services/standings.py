"""Standings on plain data: points, then the configured tiebreaks.

Pure (no ORM) so the selector, the pairing benchmark and the tests share one
implementation. How byes and late entries count is documented in
docs/pairing.md ("Standings").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

TIEBREAK_LABELS: dict[str, tuple[str, str]] = {
    "points": ("Points", "Point"),
    "buchholz": ("Buchholz", "Buchholz"),
    "wins": ("Wins", "Sejre"),
    "locked_diff": ("Locked-pawn difference", "Forskel i låste brikker"),
    "distance_diff": ("Remaining-distance difference", "Forskel i restdistance"),
    "head_to_head": ("Head-to-head", "Indbyrdes kamp"),
}
KNOWN_TIEBREAKS = frozenset(TIEBREAK_LABELS) - {"points"}


@dataclass(frozen=True)
class StandingPair:
    pair_id: int
    start_number: int
    dropped: bool = False
    pair: Any = None


@dataclass(frozen=True)
class GameRecord:
    """One game with a result. ``winner`` is "YB" or "RG"."""

    pair_yb: int
    pair_rg: int
    winner: str
    locked_yb: int | None = None
    locked_rg: int | None = None
    distance_yb: int | None = None
    distance_rg: int | None = None


@dataclass(frozen=True)
class ByeRecord:
    pair_id: int
    points: int


@dataclass
class StandingRow:
    rank: int
    pair: Any
    pair_id: int
    start_number: int
    points: int = 0
    games_played: int = 0
    wins: int = 0
    losses: int = 0
    byes: int = 0
    buchholz: int = 0
    locked_for: int = 0
    locked_against: int = 0
    distance_for: int = 0
    distance_against: int = 0
    head_to_head: int | None = None
    tiebreak_note_en: str = ""
    tiebreak_note_da: str = ""
    shared_rank: bool = False
    dropped: bool = False

    @property
    def locked_diff(self) -> int:
        return self.locked_for - self.locked_against

    @property
    def distance_diff(self) -> int:
        # Positive when the pair had less distance left than its opponents.
        return self.distance_against - self.distance_for


def _tally(
    rows: dict[int, StandingRow],
    games: Iterable[GameRecord],
    byes: Iterable[ByeRecord],
    *,
    points_win: int,
    points_loss: int,
) -> dict[int, list[int]]:
    """Fill points and sums; return each pair's opponents (real games only)."""
    opponents: dict[int, list[int]] = defaultdict(list)
    for game in games:
        sides = (
            (game.pair_yb, game.pair_rg, "YB", game.locked_yb, game.locked_rg, game.distance_yb,
             game.distance_rg),
            (game.pair_rg, game.pair_yb, "RG", game.locked_rg, game.locked_yb, game.distance_rg,
             game.distance_yb),
        )  # fmt: skip
        for me, them, colour, locked_me, locked_them, dist_me, dist_them in sides:
            row = rows.get(me)
            if row is None:
                continue
            row.games_played += 1
            opponents[me].append(them)
            if game.winner == colour:
                row.wins += 1
                row.points += points_win
            else:
                row.losses += 1
                row.points += points_loss
            if locked_me is not None and locked_them is not None:
                row.locked_for += locked_me
                row.locked_against += locked_them
            if dist_me is not None and dist_them is not None:
                row.distance_for += dist_me
                row.distance_against += dist_them
    for bye in byes:
        row = rows.get(bye.pair_id)
        if row is not None:
            row.byes += 1
            row.points += bye.points
    for pair_id, row in rows.items():
        row.buchholz = sum(rows[o].points for o in opponents[pair_id] if o in rows)
    return opponents


def _head_to_head(
    group: Sequence[StandingRow], games: Sequence[GameRecord], points_win: int, points_loss: int
) -> dict[int, int]:
    """Points each pair of ``group`` scored in games among the group only."""
    members = {r.pair_id for r in group}
    score = dict.fromkeys(members, 0)
    for game in games:
        if game.pair_yb in members and game.pair_rg in members:
            winner, loser = (
                (game.pair_yb, game.pair_rg)
                if game.winner == "YB"
                else (game.pair_rg, game.pair_yb)
            )
            score[winner] += points_win
            score[loser] += points_loss
    return score


def compute_standings(
    pairs: Sequence[StandingPair],
    games: Sequence[GameRecord],
    byes: Sequence[ByeRecord],
    *,
    points_win: int,
    points_loss: int,
    tiebreaks: Sequence[str],
) -> list[StandingRow]:
    rows = {
        p.pair_id: StandingRow(
            rank=0, pair=p.pair, pair_id=p.pair_id, start_number=p.start_number, dropped=p.dropped
        )
        for p in pairs
    }
    _tally(rows, games, byes, points_win=points_win, points_loss=points_loss)
    groups: list[list[StandingRow]] = [sorted(rows.values(), key=lambda r: r.start_number)]
    for key in ["points", *[k for k in tiebreaks if k in KNOWN_TIEBREAKS]]:
        next_groups: list[list[StandingRow]] = []
        for group in groups:
            if len(group) == 1:
                next_groups.append(group)
                continue
            if key == "head_to_head":
                values = _head_to_head(group, games, points_win, points_loss)
                for row in group:
                    row.head_to_head = values[row.pair_id]
            else:
                values = {row.pair_id: getattr(row, key) for row in group}
            ordered = sorted(group, key=lambda r: (-values[r.pair_id], r.start_number))
            runs: list[list[StandingRow]] = []
            for row in ordered:
                if runs and values[runs[-1][0].pair_id] == values[row.pair_id]:
                    runs[-1].append(row)
                else:
                    if runs and key != "points":
                        above = runs[-1][-1]
                        _note(row, key, values[row.pair_id], values[above.pair_id])
                    runs.append([row])
            next_groups.extend(runs)
        groups = next_groups
    return _ranked(groups)


def _note(row: StandingRow, key: str, mine: int, above: int) -> None:
    en, da = TIEBREAK_LABELS[key]
    row.tiebreak_note_en = f"{en} {above} vs {mine}"
    row.tiebreak_note_da = f"{da} {above} mod {mine}"


def _ranked(groups: list[list[StandingRow]]) -> list[StandingRow]:
    result: list[StandingRow] = []
    for group in groups:
        rank = len(result) + 1
        for k, row in enumerate(group):
            row.rank = rank
            if len(group) > 1:
                row.shared_rank = True
                if k > 0:
                    row.tiebreak_note_en = "Fully tied with the row above: shared rank"
                    row.tiebreak_note_da = "Helt lige med rækken ovenfor: delt placering"
            result.append(row)
    return result
