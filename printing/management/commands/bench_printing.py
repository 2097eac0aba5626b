"""Benchmark: 100 score sheets with QR codes in one PDF (budget 0.4 s).

Pure builder timing on generated data (no database) after a warm-up: the
best and the median wall-clock time of several runs and the median CPU time
of this process (the machine is shared, so wall-clock time includes waiting
for a core; the verdict uses the best run, as ``timeit`` does), plus the
cost of one QR code per encoder.
"""

from __future__ import annotations

import datetime
import os
import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from printing.documents import build_score_sheets
from printing.documents import qr as qr_module
from printing.documents.types import PairInfo, ScoreSheet

BUDGET_S = 0.4


def sample_sheets(count: int) -> list[ScoreSheet]:
    start = datetime.datetime(2026, 11, 28, 9, 0, tzinfo=datetime.UTC)
    return [
        ScoreSheet(
            tournament="DM i Partners 2026",
            round_number=4,
            table_number=n,
            pair_yb=PairInfo(2 * n - 1, f"Søren Ærø {n}", f"Åse Østergård {n}", name="Løverne"),
            pair_rg=PairInfo(2 * n, f"Mette Hansen {n}", f"Jens Kragh {n}", club="Odense"),
            first_dealer="YRBG"[n % 4],
            date=datetime.date(2026, 11, 28),
            venue="Odense",
            started_at=start if n % 2 else None,
            # Same length as a real table link: 24-character token.
            table_url=f"https://dm-partners.example/t/{n:04d}AbCdEfGhIjKlMnOpQrSt/",
            short_code=f"K7P{n:03d}",
        )
        for n in range(1, count + 1)
    ]


def _timings(runs: int, work: Any) -> tuple[float, float, float]:
    """(best wall, median wall, median CPU) seconds over ``runs`` calls."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return min(walls), statistics.median(walls), statistics.median(cpus)


class Command(BaseCommand):
    help = "Time building 100 score sheets with QR codes (budget 0.4 s)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--sheets", type=int, default=100)
        parser.add_argument("--runs", type=int, default=7)
        parser.add_argument("--check", action="store_true", help="exit 1 over budget")

    def handle(self, *args: Any, **options: Any) -> None:
        count, runs = options["sheets"], options["runs"]
        sheets = sample_sheets(count)
        build_score_sheets(sheets[:5])  # warm-up: imports, font metrics
        self.stdout.write(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        results = {}
        for size in ("A4", "A5"):
            pdf = build_score_sheets(sheets, page_size=size)
            best, median, cpu = _timings(
                runs, lambda s=size: build_score_sheets(sheets, page_size=s)
            )
            results[size] = best
            self.stdout.write(
                f"{count} score sheets {size}: best {best:.3f} s, median {median:.3f} s, "
                f"CPU {cpu:.3f} s over {runs} runs ({1000 * best / count:.2f} ms/sheet, "
                f"{len(pdf) / 1024:.0f} KiB)"
            )
        url = sheets[0].table_url
        encoders = {"segno": qr_module.qr_matrix_segno}
        if qr_module.zxingcpp is not None:
            encoders["zxing-cpp"] = qr_module.qr_matrix_zxing
        for name, encoder in encoders.items():
            per_code = _timings(runs, lambda e=encoder: [e(url) for _ in range(100)])[0] / 100
            self.stdout.write(f"QR matrix via {name}: {1000 * per_code:.2f} ms/code")
        verdict = "within" if results["A4"] <= BUDGET_S else "OVER"
        self.stdout.write(f"budget {BUDGET_S:.1f} s for {count} A4 sheets: {verdict}")
        if options["check"] and results["A4"] > BUDGET_S:
            raise CommandError("score sheets over budget")
