"""Plain sample data for the builder tests (no database)."""

from __future__ import annotations

import datetime

from printing.documents.types import PairInfo, ScoreSheet

UTC = datetime.UTC


def pair(number: int, p1: str, p2: str, name: str = "", club: str = "") -> PairInfo:
    return PairInfo(start_number=number, player_1=p1, player_2=p2, name=name, club=club)


def sheet(table: int = 7, **overrides: object) -> ScoreSheet:
    values: dict[str, object] = {
        "tournament": "DM i Partners 2026",
        "round_number": 3,
        "table_number": table,
        "pair_yb": pair(11, "Søren Ærø", "Åse Østergård", name="De Gule Løver", club="Odense"),
        "pair_rg": pair(12, "Mette Hansen", "Jens Kragh"),
        "first_dealer": "R",
        "alert_minutes": 50,
        "limit_minutes": 60,
        "date": datetime.date(2026, 11, 28),
        "venue": "Odense",
        "table_url": f"https://dm.example/t/tok{table:03d}-AbCdEfGhIjKlMnOp_q/",
        "short_code": f"K7P{table:03d}",
    }
    values.update(overrides)
    return ScoreSheet(**values)  # type: ignore[arg-type]
