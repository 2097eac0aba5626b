"""Benchmark the Swiss pairing: one round of N pairs after R simulated rounds.

Runs the pure core (``pair_round_core``, ``compute_standings``) on plain data,
so no database is involved. Prints one JSON object; the figure to watch is
``pairing_s.median`` (target: at most 0.2 s for 512 pairs after 6 rounds).
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand

from tournament.models import DEFAULT_TIEBREAKS
from tournament.services.pairing_core import PairingEntry, pair_round_core
from tournament.services.standings import ByeRecord, GameRecord, StandingPair, compute_standings


class Simulation:
    """A field of pairs with results drawn from a seeded generator; the
    stronger pair (lower start number) wins 60 % of its games."""

    def __init__(self, pairs: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.pairs = [StandingPair(pair_id=k, start_number=k) for k in range(1, pairs + 1)]
        self.games: list[GameRecord] = []
        self.byes: list[ByeRecord] = []
        self.colours: dict[int, list[str]] = {p.pair_id: [] for p in self.pairs}

    def standings(self) -> list[Any]:
        return compute_standings(
            self.pairs,
            self.games,
            self.byes,
            points_win=2,
            points_loss=0,
            tiebreaks=DEFAULT_TIEBREAKS,
        )

    def entries(self) -> tuple[list[PairingEntry], set[frozenset[int]]]:
        byes = Counter(b.pair_id for b in self.byes)
        entries = [
            PairingEntry(
                pair_id=row.pair_id,
                points=row.points,
                start_number=row.start_number,
                byes=byes[row.pair_id],
                colours=tuple(self.colours[row.pair_id]),
            )
            for row in self.standings()
        ]
        played = {frozenset((g.pair_yb, g.pair_rg)) for g in self.games}
        return entries, played

    def play_round(self, number: int) -> None:
        entries, played = self.entries()
        result = pair_round_core(
            entries, played, seed=number, first_round="random" if number == 1 else None
        )
        for table in result.tables:
            stronger_yb = table.pair_yb < table.pair_rg
            yb_wins = (self.rng.random() < 0.6) == stronger_yb
            locked_loser = self.rng.randint(0, 7)
            self.games.append(
                GameRecord(
                    pair_yb=table.pair_yb,
                    pair_rg=table.pair_rg,
                    winner="YB" if yb_wins else "RG",
                    locked_yb=8 if yb_wins else locked_loser,
                    locked_rg=locked_loser if yb_wins else 8,
                )
            )
            self.colours[table.pair_yb].append("YB")
            self.colours[table.pair_rg].append("RG")
        if result.bye is not None:
            self.byes.append(ByeRecord(pair_id=result.bye, points=2))


class Command(BaseCommand):
    help = "Time the Swiss pairing of one round (pure computation, JSON output)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--pairs", type=int, default=512)
        parser.add_argument("--rounds", type=int, default=6, help="simulated rounds before")
        parser.add_argument("--runs", type=int, default=7)
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args: Any, **options: Any) -> None:
        simulation = Simulation(options["pairs"], options["seed"])
        for number in range(1, options["rounds"] + 1):
            simulation.play_round(number)
        standings_times, pairing_times = [], []
        result = None
        for _ in range(options["runs"]):
            start = time.perf_counter()
            entries, played = simulation.entries()
            middle = time.perf_counter()
            result = pair_round_core(entries, played, seed=options["rounds"] + 1)
            end = time.perf_counter()
            standings_times.append(middle - start)
            pairing_times.append(end - middle)
        assert result is not None
        groups = len({e.points for e in entries})
        report = {
            "benchmark": "swiss_pairing",
            "pairs": options["pairs"],
            "rounds_before": options["rounds"],
            "runs": options["runs"],
            "score_groups": groups,
            "tables": len(result.tables),
            "bye": result.bye is not None,
            "rematches": result.rematches,
            "pairing_s": _summary(pairing_times),
            "standings_s": _summary(standings_times),
            "target_s": 0.2,
            "within_target": statistics.median(pairing_times) <= 0.2,
        }
        self.stdout.write(json.dumps(report, indent=2))


def _summary(times: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(times), 4),
        "min": round(min(times), 4),
        "max": round(max(times), 4),
    }
