"""Benchmark the season: the live ranking of a full season, and duplicate suggestions.

Builds a season of Q qualifiers of P pairs each (Swiss rounds with results,
a knockout of 8 with a third-place game, every round closed) inside a
transaction that is rolled back at the end, so no data is left behind. Then
times ``series_overview`` (what every uncached season page and the ranking
API compute) and counts its queries, and times ``duplicate_suggestions`` over
every person of the season. Prints one JSON object; the figure to watch is
``overview_s.median`` (target: at most 0.5 s for 6 qualifiers of 40 pairs).
"""

from __future__ import annotations

import datetime
import json
import random
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.harness import rolled_back, spread, timed
from games.models import Game
from people.models import Person
from people.selectors import duplicate_suggestions
from season.models import Series, SeriesEvent
from season.selectors import series_overview
from tournament.models import Pair, Player, Round, Tournament

FIRST_NAMES = [
    "Mette",
    "Jens",
    "Anne",
    "Søren",
    "Kirsten",
    "Lars",
    "Hanne",
    "Peter",
    "Lene",
    "Michael",
    "Susanne",
    "Henrik",
    "Pia",
    "Thomas",
    "Bente",
    "Niels",
]
LAST_NAMES = [
    "Hansen",
    "Nielsen",
    "Larsen",
    "Poulsen",
    "Pedersen",
    "Andersen",
    "Jensen",
    "Christensen",
    "Sørensen",
    "Rasmussen",
    "Jørgensen",
    "Petersen",
    "Madsen",
]


class Command(BaseCommand):
    help = "Time the season ranking and duplicate suggestions on a generated season (rolled back)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--qualifiers", type=int, default=6)
        parser.add_argument("--pairs", type=int, default=40)
        parser.add_argument("--rounds", type=int, default=5)
        parser.add_argument("--repeat", type=int, default=5)

    def handle(self, *args: Any, **options: Any) -> None:
        with rolled_back():
            series = self._season(options["qualifiers"], options["pairs"], options["rounds"])
            result = self._measure(series, options["repeat"])
        result.update({k: options[k] for k in ("qualifiers", "pairs", "rounds")})
        self.stdout.write(json.dumps(result))

    def _measure(self, series: Series, repeat: int) -> dict[str, Any]:
        def overview_counted() -> tuple[Any, int]:
            with CaptureQueriesContext(connection) as queries:
                overview = series_overview(series=series)
            return overview, len(queries)

        timings, _, (overview, queries) = timed(overview_counted, repeat)
        persons = list(Person.objects.all())
        suggest_s, _, suggestions = timed(lambda: duplicate_suggestions(persons=persons), 1)
        return {
            "overview_s": spread(timings, 4),
            "overview_queries": queries,
            "ranking_rows": len(overview.ranking),
            "qualified": len(overview.qualified),
            "persons": len(persons),
            "suggestions": len(suggestions),
            "suggestions_s": round(suggest_s[0], 4),
        }

    def _season(self, qualifiers: int, pairs: int, rounds: int) -> Series:
        rng = random.Random(2026)
        people = [
            Person.objects.create(name=f"{first} {last}", club=f"Klub {k % 12}")
            for k, (first, last) in enumerate(
                (rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)) for _ in range(pairs * 3)
            )
        ]
        series = Series.objects.create(
            name="Benchmark", slug="bench-season-x", qualifiers_per_event=4
        )
        for q in range(qualifiers):
            event = Tournament.objects.create(
                name=f"Bench {q}",
                slug=f"bench-season-{q}",
                swiss_rounds=rounds,
                knockout_size=8,
                third_place_game=True,
                date=datetime.date(2026, 1, 1) + datetime.timedelta(weeks=q),
                published=True,
            )
            SeriesEvent.objects.create(series=series, tournament=event)
            chosen = rng.sample(people, pairs * 2)
            entered = []
            for k in range(pairs):
                p1, p2 = chosen[2 * k], chosen[2 * k + 1]
                player_1 = Player.objects.create(
                    tournament=event, name=p1.name, club=p1.club, person=p1
                )
                player_2 = Player.objects.create(
                    tournament=event, name=p2.name, club=p1.club, person=p2
                )
                entered.append(
                    Pair.objects.create(
                        tournament=event,
                        start_number=k + 1,
                        player_1=player_1,
                        player_2=player_2,
                        status=Pair.Status.CHECKED_IN,
                    )
                )
            for number in range(1, rounds + 1):
                self._round(event, number, entered, rng, Round.Kind.SWISS)
            self._knockout(event, rounds, entered[:8], rng)
        return series

    @staticmethod
    def _round(
        event: Tournament,
        number: int,
        pairs: list[Pair],
        rng: random.Random,
        kind: str,
        stage: int | None = None,
        matches: int | None = None,
    ) -> Round:
        round_ = Round.objects.create(
            tournament=event,
            number=number,
            kind=kind,
            status=Round.Status.CLOSED,
            knockout_stage=stage,
            bracket_matches=matches,
        )
        order = pairs if kind == Round.Kind.KNOCKOUT else rng.sample(pairs, len(pairs))
        Game.objects.bulk_create(
            Game(
                round=round_,
                table_number=k + 1,
                pair_yb=order[2 * k],
                pair_rg=order[2 * k + 1],
                first_dealer="Y",
                winner=rng.choice(["YB", "RG"]),
                status=Game.Status.FINISHED,
                result_source="typed",
                bracket_slot=k + 1 if matches else None,
            )
            for k in range(len(order) // 2)
        )
        return round_

    def _knockout(
        self, event: Tournament, after: int, pairs: list[Pair], rng: random.Random
    ) -> None:
        stage, number, alive = 1, after + 1, pairs
        while len(alive) > 1:
            round_ = self._round(
                event, number, alive, rng, Round.Kind.KNOCKOUT, stage, len(alive) // 2
            )
            games = list(round_.games.order_by("bracket_slot"))
            alive = [g.winner_pair for g in games]
            stage, number = stage + 1, number + 1
