"""Pairs imported from a CSV file: every row checked, all stored or none."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max

from core.errors import ApplicationError
from core.users import Actor
from tournament.models import (
    Pair,
    Player,
    Tournament,
)
from tournament.permissions import require_organiser
from tournament.services.audit import audit_record, tournament_data_changed
from tournament.services.registration.pairs import (
    PairData,
    _active_pairs,
    _clean_pair,
    _conflicts,
    _create_pair,
    _lock,
    _next_round_number,
    _persons,
)

MAX_IMPORT_ROWS = 2000
CSV_COLUMNS = ("player_1", "player_2", "club", "name", "seed", "rating")
# A singles event's file: one player per row; ``player_1`` is read as ``player``.
SINGLES_CSV_COLUMNS = ("player", "club", "seed", "rating")


@dataclass(frozen=True)
class RowError:
    line: int
    message_en: str
    message_da: str


@dataclass
class ImportReport:
    created: list[Pair] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def _header_problem(header: list[str], *, singles: bool) -> RowError | None:
    known: tuple[str, ...]
    if singles:
        required, known = ["player"], SINGLES_CSV_COLUMNS
        en = (
            "The first row must name the columns: player and optionally club, seed, "
            "rating (each once). A singles event has one player per row."
        )
        da = (
            "Første række skal navngive kolonnerne: player og eventuelt club, seed, "
            "rating (hver én gang). En singleturnering har én spiller pr. række."
        )
    else:
        required, known = ["player_1", "player_2"], CSV_COLUMNS
        en = (
            "The first row must name the columns: player_1, player_2 and "
            "optionally club, name, seed, rating (each once)."
        )
        da = (
            "Første række skal navngive kolonnerne: player_1, player_2 og "
            "eventuelt club, name, seed, rating (hver én gang)."
        )
    missing = [c for c in required if c not in header]
    unknown = [c for c in header if c not in known]
    if missing or unknown or len(set(header)) != len(header):
        return RowError(0, en, da)
    return None


def _csv_rows(
    csv_text: str, *, singles: bool = False
) -> tuple[list[tuple[int, dict[str, str]]], list[RowError]]:
    text = csv_text.lstrip("\ufeff")
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header: list[str] | None = None
    rows: list[tuple[int, dict[str, str]]] = []
    errors: list[RowError] = []
    try:
        for record in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in record):
                continue
            if header is None:
                header = [cell.strip().lower() for cell in record]
                if singles:
                    header = ["player" if c == "player_1" else c for c in header]
                problem = _header_problem(header, singles=singles)
                if problem:
                    errors.append(RowError(line, problem.message_en, problem.message_da))
                    return [], errors
                continue
            if len(record) != len(header):
                errors.append(
                    RowError(
                        line,
                        f"Expected {len(header)} fields, found {len(record)}.",
                        f"Forventede {len(header)} felter, fandt {len(record)}.",
                    )
                )
                continue
            rows.append((line, dict(zip(header, record, strict=True))))
    except csv.Error as exc:
        errors.append(
            RowError(
                reader.line_num,
                f"The file is not valid CSV ({exc}).",
                f"Filen er ikke gyldig CSV ({exc}).",
            )
        )
    if header is None and not errors:
        errors.append(RowError(1, "The file is empty.", "Filen er tom."))
    if len(rows) > MAX_IMPORT_ROWS:
        errors.append(
            RowError(
                rows[MAX_IMPORT_ROWS][0],
                f"At most {MAX_IMPORT_ROWS} rows per import.",
                f"Højst {MAX_IMPORT_ROWS} rækker pr. import.",
            )
        )
    return rows, errors


@transaction.atomic
def pairs_import_csv(*, tournament: Tournament, actor: Actor, csv_text: str) -> ImportReport:
    """All or nothing: if any row is bad nothing is created and every bad row
    is reported with its line number."""
    require_organiser(actor, tournament)
    tournament = _lock(tournament)
    singles = tournament.is_singles
    rows, errors = _csv_rows(csv_text, singles=singles)
    existing = list(_active_pairs(tournament))
    accepted: list[PairData] = []
    seen: list[Pair] = list(existing)
    for line, row in rows:
        try:
            if singles:
                fields = {k: row.get(k, "") for k in SINGLES_CSV_COLUMNS if k != "player"}
                data = _clean_pair(singles=True, player_1=row.get("player", ""), **fields)
            else:
                data = _clean_pair(singles=False, **{k: row.get(k, "") for k in CSV_COLUMNS})
        except ApplicationError as exc:
            errors.append(RowError(line, exc.message_en, exc.message_da))
            continue
        problem = _conflicts(data, seen)
        if problem:
            errors.append(RowError(line, problem.message_en, problem.message_da))
            continue
        accepted.append(data)
        # Stand-in so later rows in the same file are checked against this one.
        seen.append(
            Pair(
                start_number=0,
                seed=data.seed,
                player_1=Player(name=data.player_1),
                player_2=Player(name=data.player_2) if data.player_2 else None,
            )
        )
    if errors:
        errors.sort(key=lambda e: e.line)
        return ImportReport(created=[], errors=errors)
    start = (tournament.pairs.aggregate(m=Max("start_number"))["m"] or 0) + 1
    first_round = _next_round_number(tournament)
    created = [
        _create_pair(
            tournament, data, start_number=start + k, first_round=first_round, check_in=False,
            persons=persons,
        )
        for k, (data, persons) in enumerate(zip(accepted, _persons(accepted), strict=True))
    ]  # fmt: skip
    if created:
        audit_record(
            tournament=tournament,
            actor=actor,
            action="pairs_import_csv",
            target=f"{len(created)} pairs",
            data={"start_numbers": [p.start_number for p in created]},
        )
        tournament_data_changed(tournament=tournament)
    return ImportReport(created=created, errors=[])
