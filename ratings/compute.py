"""Ratings from game results: plain data in, plain data out (no database).

Every game is side against side, won or lost: a pair of two people, or one
person in a singles event (DUO). Two ratings are kept with the same OpenSkill
model (docs/decisions.md, "Ratings"):

- a **person** rating: each side is a team of its people (two, or one in
  singles), so a player's rating follows them from partner to partner;
- a **pair** rating: each side is one player, the pair of two people as one
  entity, for the partnerships that play together again (pairs games only).

Games are rated in :func:`game_key` order (event date, event, round, table),
so recomputing from any game onward gives what a recomputation from scratch
gives.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU = float(MODEL.mu)
SIGMA = float(MODEL.sigma)

PairKey = tuple[int, int]
"""The two person ids of a pair, lowest first: the same pair in every event."""

Side = tuple[int, ...]
"""The people of one side of a game: a ``PairKey``, or one person in singles."""


def pair_key(a: int, b: int) -> PairKey:
    return (a, b) if a < b else (b, a)


def game_key(
    *, date: datetime.date, tournament_id: int, round_number: int, table: int, game_id: int
) -> str:
    """A string that sorts games in the order they are rated."""
    return f"{date:%Y%m%d}-{tournament_id:08d}-{round_number:04d}-{table:05d}-{game_id:010d}"


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One result: the people of each side (two, or one in singles) and the winning side."""

    key: str
    game_id: int
    yb: Side
    rg: Side
    winner: str  # "YB" or "RG"

    @property
    def pairs(self) -> tuple[PairKey, PairKey] | None:
        """The two pairs, when both sides are pairs (a singles game has none)."""
        if len(self.yb) == 2 and len(self.rg) == 2:
            return (self.yb[0], self.yb[1]), (self.rg[0], self.rg[1])
        return None


@dataclass(slots=True)
class Skill:
    """A rating: mean ``mu`` and uncertainty ``sigma``; games and wins counted."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        """The rating shown and sorted on: mu - 3 sigma (99.7% sure it is at least this)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class Change:
    """One subject's rating before and after one game (a history row)."""

    key: str
    game_id: int
    subject: int | PairKey
    side: str
    won: bool
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass
class Outcome:
    people: dict[int, Skill]
    pairs: dict[PairKey, Skill]
    person_changes: list[Change]
    pair_changes: list[Change]


def _update(
    skills: Mapping[Any, Skill],
    subjects: list[list[Any]],
    game: RatedGame,
    changes: list[Change],
) -> None:
    teams = [[skills[s] for s in side] for side in subjects]
    # Winners first and no ranks: the model reads the order as the result.
    first = 0 if game.winner == "YB" else 1
    order = (first, 1 - first)
    rated = MODEL.rate([[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in teams[i]] for i in order])
    after = [rated[order.index(0)], rated[order.index(1)]]
    for side_name, side, team, new in zip(("YB", "RG"), subjects, teams, after, strict=True):
        won = game.winner == side_name
        for subject, skill, r in zip(side, team, new, strict=True):
            mu, sigma = float(r.mu), float(r.sigma)
            changes.append(
                Change(game.key, game.game_id, subject, side_name, won,
                       skill.mu, skill.sigma, mu, sigma)
            )  # fmt: skip
            skill.mu, skill.sigma = mu, sigma
            skill.games += 1
            skill.wins += won


def rate_games(
    games: Iterable[RatedGame],
    *,
    people: Mapping[int, Skill] | None = None,
    pairs: Mapping[PairKey, Skill] | None = None,
) -> Outcome:
    """Rate ``games`` in key order, starting from the given ratings (defaults for the rest).

    The starting ratings are copied, never changed.
    """
    person_skill = {k: Skill(v.mu, v.sigma, v.games, v.wins) for k, v in (people or {}).items()}
    pair_skill = {k: Skill(v.mu, v.sigma, v.games, v.wins) for k, v in (pairs or {}).items()}
    person_changes: list[Change] = []
    pair_changes: list[Change] = []
    for game in sorted(games, key=lambda g: g.key):
        for person in (*game.yb, *game.rg):
            if person not in person_skill:
                person_skill[person] = Skill()
        _update(person_skill, [list(game.yb), list(game.rg)], game, person_changes)
        if game.pairs is None:
            continue
        for pair in game.pairs:
            if pair not in pair_skill:
                pair_skill[pair] = Skill()
        _update(pair_skill, [[pair] for pair in game.pairs], game, pair_changes)
    return Outcome(person_skill, pair_skill, person_changes, pair_changes)


def team_strength(skills: Iterable[Skill]) -> float:
    """A side's ordinal from its players' ratings: means add, uncertainties add in square."""
    listed = list(skills)
    mu = sum(s.mu for s in listed)
    sigma = math.sqrt(sum(s.sigma**2 for s in listed))
    return mu - 3 * sigma
