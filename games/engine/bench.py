"""``python -m games.engine bench``: throughput on a fixed seeded self-play corpus.

Reports replay (entries checked per second), legal-move generation (calls
per second over every card of every hand met in the corpus, 7s included)
and self-play (complete games per second). Single process, so one core.
"""

from __future__ import annotations

import platform
import time
from typing import Any

from .board import SEATS
from .game import replay
from .position import Position
from .rules import legal_moves
from .selfplay import play_game

BENCH_GAMES = 40
BENCH_SEED = 20230


def run_bench(games: int = BENCH_GAMES, seed: int = BENCH_SEED, repeat: int = 3) -> dict[str, Any]:
    """Run the benchmark; the best of ``repeat`` timings of each part."""
    turns: list[tuple[tuple[int, ...], int, tuple[str, ...]]] = []

    def observe(locs: tuple[int, ...], s: int, hand: tuple[str, ...]) -> None:
        if s >= 0:
            turns.append((locs, s, hand))

    t0 = time.perf_counter()
    corpus = [play_game(seed + i, observe=observe) for i in range(games)]
    observe_time = time.perf_counter() - t0

    best_sp = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for i in range(games):
            play_game(seed + i)
        best_sp = min(best_sp, time.perf_counter() - t0)
    best_sp = min(best_sp, observe_time)

    entries = sum(len(r["moves"]) for r in corpus)
    best_rp = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for r in corpus:
            res = replay(r)
            if not res.ok:  # pragma: no cover - a broken engine
                raise RuntimeError(f"self-play record failed to replay: {res.first_error}")
        best_rp = min(best_rp, time.perf_counter() - t0)

    calls = [
        (Position(locs, _checked=True), SEATS[s], card) for locs, s, hand in turns for card in hand
    ]
    sevens = sum(1 for _, _, card in calls if card == "7")
    best_lg = float("inf")
    moves_listed = 0
    for _ in range(repeat):
        moves_listed = 0
        t0 = time.perf_counter()
        for pos, seat, card in calls:
            moves_listed += len(legal_moves(pos, seat, card))
        best_lg = min(best_lg, time.perf_counter() - t0)

    return {
        "corpus": {"games": games, "first_seed": seed, "entries": entries, "turns": len(turns)},
        "replay": {
            "entries": entries,
            "seconds": round(best_rp, 4),
            "moves_per_s": round(entries / best_rp),
        },
        "legal": {
            "calls": len(calls),
            "sevens": sevens,
            "moves_listed": moves_listed,
            "seconds": round(best_lg, 4),
            "calls_per_s": round(len(calls) / best_lg),
        },
        "selfplay": {
            "games": games,
            "seconds": round(best_sp, 4),
            "games_per_s": round(games / best_sp, 1),
        },
        "targets": {
            "replay_moves_per_s": 60000,
            "legal_calls_per_s": 20000,
            "selfplay_games_per_s": 30,
        },
        "python": platform.python_version(),
        "repeat": repeat,
    }
