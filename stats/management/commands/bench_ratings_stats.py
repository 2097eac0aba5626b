"""Benchmark ratings and statistics on generated data (rolled back at the end).

1. A season of E events x P pairs x R rounds with results, players drawn
   from a pool of people so partners change between events: time
   ``ratings_recompute()`` from scratch (target: at most 2 s for 20 x 100 x 7)
   and one incremental update after correcting a game in the first event
   (the worst case: everything after it is rated again).
2. One round of T tables, each with the move log of a self-played game:
   time ``stats_for_round`` (load the logs, replay them with the engine,
   count; target: at most 2 s for 100 tables).

Prints one JSON object.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import random
import statistics
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from bench.harness import rolled_back, spread, timed
from games.engine import selfplay_game
from games.models import Game, MoveEntry
from people.models import Person
from ratings.services import ratings_recompute, ratings_update_from_game
from stats.selectors import stats_for_round
from tournament.models import Pair, Player, Round, Tournament


def _seconds(timings: list[float], cpu: list[float]) -> dict[str, Any]:
    """Wall-clock median and max, this process's CPU median, and the 2 s target."""
    return spread(timings, 3, this_process_cpu_median=round(statistics.median(cpu), 3), target=2.0)


class Command(BaseCommand):
    help = "Time rating recomputation and statistics from move logs on generated data."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--events", type=int, default=20)
        parser.add_argument("--pairs", type=int, default=100)
        parser.add_argument("--rounds", type=int, default=7)
        parser.add_argument("--people", type=int, default=600)
        parser.add_argument("--tables", type=int, default=100)
        parser.add_argument("--repeat", type=int, default=3)

    def handle(self, *args: Any, **options: Any) -> None:
        result: dict[str, Any] = {}
        with rolled_back():
            rng = random.Random(2026)
            games = self._season(rng, options)
            result.update(self._ratings(games, options["repeat"]))
            round_ = self._logged_round(rng, options["tables"])
            result.update(self._stats(round_, options["repeat"]))
        result["load_average"] = [round(x, 2) for x in os.getloadavg()]
        keys = ("events", "pairs", "rounds", "people", "tables")
        result.update({k: options[k] for k in keys})
        self.stdout.write(json.dumps(result))

    def _ratings(self, first_game: Game, repeat: int) -> dict[str, Any]:
        timings, cpu, rated = timed(ratings_recompute, repeat)
        Game.objects.filter(pk=first_game.pk).update(
            winner="RG" if first_game.winner == "YB" else "YB"
        )
        incremental, _, _ = timed(lambda: ratings_update_from_game(game_id=first_game.pk), 1)
        return {
            "rated_games": rated,
            "ratings_from_scratch_s": _seconds(timings, cpu),
            "ratings_after_correcting_the_first_event_s": round(incremental[0], 3),
        }

    def _stats(self, round_: Round, repeat: int) -> dict[str, Any]:
        timings, cpu, computed = timed(lambda: stats_for_round(round_=round_), repeat)
        return {
            "round_tables": len(computed),
            "round_entries": sum(s.entries for s in computed),
            "round_stats_s": _seconds(timings, cpu),
        }

    @staticmethod
    def _season(rng: random.Random, options: dict[str, Any]) -> Game:
        people = Person.objects.bulk_create(
            Person(name=f"Bench {k}", club=f"Klub {k % 20}") for k in range(options["people"])
        )
        first: Game | None = None
        for e in range(options["events"]):
            event = Tournament.objects.create(
                name=f"Bench rating {e}",
                slug=f"bench-rating-{e}",
                date=datetime.date(2026, 1, 3) + datetime.timedelta(weeks=e),
                published=True,
            )
            chosen = rng.sample(people, options["pairs"] * 2)
            players = Player.objects.bulk_create(
                Player(tournament=event, name=p.name, club=p.club, person=p) for p in chosen
            )
            pairs = Pair.objects.bulk_create(
                Pair(
                    tournament=event,
                    start_number=k + 1,
                    player_1=players[2 * k],
                    player_2=players[2 * k + 1],
                    status=Pair.Status.CHECKED_IN,
                )
                for k in range(options["pairs"])
            )
            for number in range(1, options["rounds"] + 1):
                round_ = Round.objects.create(
                    tournament=event, number=number, status=Round.Status.CLOSED
                )
                order = rng.sample(pairs, len(pairs))
                games = Game.objects.bulk_create(
                    Game(
                        round=round_,
                        table_number=k + 1,
                        pair_yb=order[2 * k],
                        pair_rg=order[2 * k + 1],
                        first_dealer="Y",
                        winner=rng.choice(["YB", "RG"]),
                        status=Game.Status.FINISHED,
                        result_source="typed",
                    )
                    for k in range(len(order) // 2)
                )
                first = first or games[len(games) // 2]
        assert first is not None
        return first

    @staticmethod
    def _logged_round(rng: random.Random, tables: int) -> Round:
        event = Tournament.objects.create(
            name="Bench logs", slug="bench-logs", date=datetime.date(2026, 12, 1), published=True
        )
        players = Player.objects.bulk_create(
            Player(tournament=event, name=f"Log {k}") for k in range(tables * 4)
        )
        pairs = Pair.objects.bulk_create(
            Pair(
                tournament=event,
                start_number=k + 1,
                player_1=players[2 * k],
                player_2=players[2 * k + 1],
            )
            for k in range(tables * 2)
        )
        round_ = Round.objects.create(tournament=event, number=1, status=Round.Status.CLOSED)
        start = timezone.now() - datetime.timedelta(hours=2)
        for t in range(tables):
            record = selfplay_game(rng.randrange(10**9))
            game = Game.objects.create(
                round=round_,
                table_number=t + 1,
                pair_yb=pairs[2 * t],
                pair_rg=pairs[2 * t + 1],
                first_dealer=record["first_dealer"],
                started_at=start,
                winner=record.get("winner") or "YB",
                status=Game.Status.FINISHED,
                result_source="log",
            )
            entries = MoveEntry.objects.bulk_create(
                MoveEntry(
                    game=game,
                    seq=i + 1,
                    seat=text[0],
                    text=text,
                    client_id=f"bench-{t}-{i}",
                    prev_hash="",
                    hash=hashlib.sha256(f"{t}:{i}".encode()).hexdigest(),
                )
                for i, text in enumerate(record["moves"])
            )
            stamps = [
                (e.pk, start + datetime.timedelta(seconds=12 * i)) for i, e in enumerate(entries)
            ]
            for pk, at in stamps[-1:]:
                MoveEntry.objects.filter(pk=pk).update(created_at=at)
        return round_
