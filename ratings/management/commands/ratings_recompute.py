"""Rate every game from scratch (after merging people, or to repair a lost update)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from ratings.services import ratings_recompute


class Command(BaseCommand):
    help = "Recompute every player and pair rating from all results, from scratch."

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        games = ratings_recompute()
        self.stdout.write(f"{games} games rated in {time.perf_counter() - started:.2f} s")
