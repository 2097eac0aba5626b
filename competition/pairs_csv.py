"""Reading a CSV file of pairs: each row checked as the API checks one pair.

The organiser's import page and the API both read the file here, row by row
through ``PairRowInputSerializer``; the import service then checks the rows
against the event (players already entered, seeds taken) and stores them.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ValidationError

from competition.serializers import PairRowInputSerializer
from core.errors import Text, in_language
from tournament.services.registration import ImportRow, PairData, RowError

MAX_IMPORT_ROWS = 2000
CSV_COLUMNS = ("player_1", "player_2", "club", "name", "seed", "rating")
# A singles event's file: one player per row; ``player_1`` is read as ``player``.
SINGLES_CSV_COLUMNS = ("player", "club", "seed", "rating")


@dataclass
class PairsCsv:
    """The rows read and checked, and the lines refused (all reported together)."""

    rows: list[ImportRow] = field(default_factory=list)
    refused: list[RowError] = field(default_factory=list)


def _refused(line: int, text: Text, params: dict[str, Any] | None = None) -> RowError:
    return RowError(line, in_language(text, "en", params), in_language(text, "da", params))


def _header_problem(header: list[str], *, singles: bool) -> Text | None:
    required, known = (
        (["player"], SINGLES_CSV_COLUMNS) if singles else (["player_1", "player_2"], CSV_COLUMNS)
    )
    missing = [c for c in required if c not in header]
    unknown = [c for c in header if c not in known]
    if not (missing or unknown or len(set(header)) != len(header)):
        return None
    if singles:
        return _(
            "The first row must name the columns: player and optionally club, seed, "
            "rating (each once). A singles event has one player per row."
        )
    return _(
        "The first row must name the columns: player_1, player_2 and "
        "optionally club, name, seed, rating (each once)."
    )


def _records(
    csv_text: str, *, singles: bool
) -> tuple[list[tuple[int, dict[str, str]]], list[RowError]]:
    """The rows as ``{column: cell}`` with their line numbers, or why the file cannot be read."""
    text = csv_text.lstrip("\ufeff")
    first = next((line for line in text.splitlines() if line.strip()), "")
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
                if problem is not None:
                    errors.append(_refused(line, problem))
                    return [], errors
                continue
            if len(record) != len(header):
                errors.append(
                    _refused(
                        line,
                        _("Expected %(expected)s fields, found %(found)s."),
                        {"expected": len(header), "found": len(record)},
                    )
                )
                continue
            rows.append((line, dict(zip(header, record, strict=True))))
    except csv.Error as exc:
        errors.append(
            _refused(reader.line_num, _("The file is not valid CSV (%(why)s)."), {"why": exc})
        )
    if header is None and not errors:
        errors.append(_refused(1, _("The file is empty.")))
    if len(rows) > MAX_IMPORT_ROWS:
        errors.append(
            _refused(
                rows[MAX_IMPORT_ROWS][0],
                _("At most %(n)s pairs per import."),
                {"n": MAX_IMPORT_ROWS},
            )
        )
    return rows, errors


def pairs_csv_read(csv_text: str, *, singles: bool = False) -> PairsCsv:
    """Every row of ``csv_text`` checked; the good ones typed, the bad ones with their line.

    A singles event's file has a ``player`` column (``player_1`` read as it)
    and no second player or pair name.
    """
    records, refused = _records(csv_text, singles=singles)
    result = PairsCsv(refused=refused)
    # One serializer checks every row, as a list serializer does with its
    # child: building its fields per row cost a second for 2000 rows.
    check = PairRowInputSerializer()
    for line, record in records:
        if singles:
            record = {("player_1" if k == "player" else k): v for k, v in record.items()}
        try:
            values = check.run_validation(record)
        except ValidationError:
            why_en, why_da = PairRowInputSerializer(data=record).first_refusal()
            result.refused.append(RowError(line, why_en, why_da))
        else:
            result.rows.append(ImportRow(line=line, pair=PairData(**values)))
    return result
