"""Benchmark: 100 score sheets with QR codes in one PDF (budget 0.4 s).

Pure builder timing on generated data (no database), median of several runs
after a warm-up, plus the cost of one QR code per encoder.
"""

from __future__ import annotations

import datetime
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


def _median_time(runs: int, work: Any) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


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
        results = {}
        for size in ("A4", "A5"):
            pdf = build_score_sheets(sheets, page_size=size)
            results[size] = _median_time(runs, lambda s=size: build_score_sheets(sheets,
                                                                                   page_size=s))
            self.stdout.write(
                f"{count} score sheets {size}: {results[size]:.3f} s median of {runs} "
                f"({1000 * results[size] / count:.2f} ms/sheet, {len(pdf) / 1024:.0f} KiB)"
            )
        url = sheets[0].table_url
        encoders = {"segno": qr_module.qr_matrix_segno}
        if qr_module.zxingcpp is not None:
            encoders["zxing-cpp"] = qr_module.qr_matrix_zxing
        for name, encoder in encoders.items():
            per_code = _median_time(runs, lambda e=encoder: [e(url) for _ in range(100)]) / 100
            self.stdout.write(f"QR matrix via {name}: {1000 * per_code:.2f} ms/code")
        verdict = "within" if results["A4"] <= BUDGET_S else "OVER"
        self.stdout.write(f"budget {BUDGET_S:.1f} s for {count} A4 sheets: {verdict}")
        if options["check"] and results["A4"] > BUDGET_S:
            raise CommandError("score sheets over budget")
