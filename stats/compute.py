"""Statistics of games from their move logs: plain data in, plain data out.

A game's numbers come from replaying its record with the engine
(``games.engine.replay_steps``): what each entry played, the hits and locks
it made and the remaining distance of both teams after it. Only a log the
engine accepts to its last entry counts (``GameStats.complete``).
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import (
    CARDS,
    DM2023,
    SEATS,
    Discard,
    Move,
    Ruleset,
    get_ruleset,
    replay_steps,
    team_of,
    team_standing,
)

# Locked pawns over time are compared at the same share of each game's entries
# (0 %, 10 %, ... 100 %): games differ in length, and not every game has
# logging times (docs/ratings-and-statistics.md).
PROGRESS_STEPS = 10

# A win counts as a comeback when the winners were this many steps (of 488)
# behind at some point: about two pawns' worth of a lap, more than the swing
# of one hit (docs/statistics.md).
COMEBACK_STEPS = 60

# Entries logged less than this many seconds apart on average were not logged
# at the table but loaded together (an import, the demo): their times say
# nothing about how long the game took, so the game counts as untimed.
MIN_SECONDS_PER_ENTRY = 1.0

# The comeback list names this many games; the rest are one tap away.
COMEBACKS_SHOWN = 5


@dataclass
class GameStats:
    """The numbers of one game; ``distance`` and ``locked`` hold one point per entry
    (index 0 is the start), YB then RG."""

    game_id: int
    entries: int = 0
    complete: bool = True
    minutes: float | None = None
    # Seconds between the first and the last logged entry, and the number of gaps
    # between consecutive entries (None: the game has no usable times).
    logged_seconds: float | None = None
    gaps: int = 0
    winner: str | None = None
    hits_given: dict[str, int] = field(default_factory=lambda: {"YB": 0, "RG": 0})
    hits_taken: dict[str, int] = field(default_factory=lambda: {"YB": 0, "RG": 0})
    cards: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CARDS, 0))
    # The same plays per seat (Y, R, B, G): who played what.
    cards_by_seat: dict[str, dict[str, int]] = field(
        default_factory=lambda: {seat: dict.fromkeys(CARDS, 0) for seat in SEATS}
    )
    discards: int = 0
    discarded_cards: int = 0
    swaps: int = 0
    splits: int = 0
    judge_entries: int = 0
    distance: list[tuple[int, int]] = field(default_factory=list)
    locked: list[tuple[int, int]] = field(default_factory=list)

    @property
    def seconds_per_entry(self) -> float | None:
        """The mean time between consecutive entries."""
        if self.logged_seconds is None or not self.gaps:
            return None
        return self.logged_seconds / self.gaps

    def deficit(self, team: str) -> int:
        """The most steps ``team`` was ever behind (0 if never)."""
        me, other = (0, 1) if team == "YB" else (1, 0)
        return max((d[me] - d[other] for d in self.distance), default=0)

    @property
    def comeback(self) -> bool:
        return self.winner is not None and self.deficit(self.winner) >= COMEBACK_STEPS

    @property
    def final_gap(self) -> int | None:
        """Steps between the teams at the end: the smaller, the closer the game."""
        if not self.distance:
            return None
        yb, rg = self.distance[-1]
        return abs(yb - rg)


def _teams(position: Any, ruleset: Ruleset) -> tuple[tuple[int, int], tuple[int, int]]:
    yb, rg, locked_yb, locked_rg = team_standing(position, ruleset)
    return (yb, rg), (locked_yb, locked_rg)


def game_stats(
    *,
    game_id: int,
    record: Mapping[str, Any],
    times: Sequence[datetime.datetime | None] = (),
    started_at: datetime.datetime | None = None,
) -> GameStats:
    """Replay ``record`` and count. ``times`` are the entries' logging times;
    the game's minutes run from ``started_at`` (else the first entry) to the last entry."""
    from games.engine import Position

    stats = GameStats(game_id)
    ruleset = get_ruleset(record.get("ruleset", DM2023.name))
    start = record.get("start")
    first = _teams(Position.initial() if start is None else Position.from_json(start), ruleset)
    stats.distance.append(first[0])
    stats.locked.append(first[1])
    for step in replay_steps(record):
        stats.entries += 1
        distance, locked = _teams(step.position, ruleset)
        stats.distance.append(distance)
        stats.locked.append(locked)
        stats.winner = step.winner
        action = step.action
        if step.seat is None:
            stats.judge_entries += 1
        elif isinstance(action, Discard):
            stats.discards += 1
            stats.discarded_cards += len(action.cards)
        elif isinstance(action, Move):
            stats.cards[action.card] += 1
            stats.cards_by_seat[step.seat][action.card] += 1
            stats.swaps += action.kind == "swap"
            stats.splits += action.card == "7" and len(action.steps) > 1
            mover = team_of(step.seat)
            for event in step.events:
                if event.type == "hit":
                    stats.hits_given[mover] += 1
                    stats.hits_taken[team_of(event.colour)] += 1
    stats.complete = stats.entries == len(record.get("moves", ()))
    stamped = [t for t in times[: stats.entries] if t is not None]
    if len(stamped) < 2:
        return stats
    span = (stamped[-1] - stamped[0]).total_seconds()
    if span < MIN_SECONDS_PER_ENTRY * (len(stamped) - 1):
        return stats  # loaded together, not logged at the table: no times
    stats.logged_seconds = span
    stats.gaps = len(stamped) - 1
    # The clock's start when the game has one (before the first entry), else the first entry.
    begin = started_at if started_at is not None and started_at <= stamped[0] else stamped[0]
    stats.minutes = (stamped[-1] - begin).total_seconds() / 60
    return stats


def locked_at_progress(game: GameStats) -> list[tuple[int, int]]:
    """(winners, losers) locked pawns after 0, 10, ... 100 % of the game's entries.

    Point k is the position after ``k * entries // PROGRESS_STEPS`` entries
    (0 is the start, the last point the end)."""
    if game.winner is None or not game.locked:
        return []
    entries = len(game.locked) - 1
    won = 0 if game.winner == "YB" else 1
    points = (game.locked[k * entries // PROGRESS_STEPS] for k in range(PROGRESS_STEPS + 1))
    return [(p[won], p[1 - won]) for p in points]


def locked_over_games(games: Iterable[GameStats]) -> tuple[list[float], list[float]]:
    """The average locked pawns of the winning and of the losing team, point by point
    (``locked_at_progress``) over the games with a winner; empty lists if none."""
    curves = [c for c in (locked_at_progress(g) for g in games) if c]
    if not curves:
        return [], []
    n = len(curves)
    winners = [sum(c[k][0] for c in curves) / n for k in range(PROGRESS_STEPS + 1)]
    losers = [sum(c[k][1] for c in curves) / n for k in range(PROGRESS_STEPS + 1)]
    return winners, losers


@dataclass
class Summary:
    """The numbers of many games (an event, a season): totals, averages, the notable games."""

    games: int
    entries: int
    minutes: float
    timed_games: int
    # Over the timed games: seconds between their first and last entries, and gaps.
    logged_seconds: float
    gaps: int
    hits: int
    cards: dict[str, int]
    discards: int
    discarded_cards: int
    swaps: int
    splits: int
    comebacks: list[GameStats]
    longest: list[GameStats]
    closest: list[GameStats]
    # Average locked pawns of winners and losers after each tenth of the games.
    locked_winners: list[float] = field(default_factory=list)
    locked_losers: list[float] = field(default_factory=list)

    @property
    def entries_per_game(self) -> float | None:
        return self.entries / self.games if self.games else None

    @property
    def minutes_per_game(self) -> float | None:
        return self.minutes / self.timed_games if self.timed_games else None

    @property
    def seconds_per_entry(self) -> float | None:
        return self.logged_seconds / self.gaps if self.gaps else None

    @property
    def comebacks_shown(self) -> list[GameStats]:
        return self.comebacks[:COMEBACKS_SHOWN]

    @property
    def comebacks_more(self) -> list[GameStats]:
        return self.comebacks[COMEBACKS_SHOWN:]


def summarise(games: Iterable[GameStats], *, top: int = 3) -> Summary:
    """Add up complete logs; the longest (by entries) and closest (by final gap) ``top`` games."""
    listed = [g for g in games if g.complete and g.entries]
    cards: Counter[str] = Counter(dict.fromkeys(CARDS, 0))
    for g in listed:
        cards.update(g.cards)
    timed = [g for g in listed if g.minutes is not None]
    locked_winners, locked_losers = locked_over_games(listed)
    return Summary(
        games=len(listed),
        entries=sum(g.entries for g in listed),
        minutes=sum(g.minutes or 0.0 for g in timed),
        timed_games=len(timed),
        logged_seconds=sum(g.logged_seconds or 0.0 for g in timed),
        gaps=sum(g.gaps for g in timed),
        hits=sum(g.hits_given["YB"] + g.hits_given["RG"] for g in listed),
        cards={c: cards[c] for c in CARDS},
        discards=sum(g.discards for g in listed),
        discarded_cards=sum(g.discarded_cards for g in listed),
        swaps=sum(g.swaps for g in listed),
        splits=sum(g.splits for g in listed),
        # The most striking first: the winners' deepest deficit.
        comebacks=sorted(
            (g for g in listed if g.comeback),
            key=lambda g: (-g.deficit(g.winner or "YB"), g.game_id),
        ),
        longest=sorted(listed, key=lambda g: (-g.entries, g.game_id))[:top],
        closest=sorted(
            (g for g in listed if g.winner is not None),
            key=lambda g: (g.final_gap or 0, g.game_id),
        )[:top],
        locked_winners=locked_winners,
        locked_losers=locked_losers,
    )
