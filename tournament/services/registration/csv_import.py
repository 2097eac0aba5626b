"""Pairs imported from a CSV file (read by ``competition.pairs_csv``): all stored or none."""

from __future__ import annotations

from collections.abc import Sequence
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
    active_pairs_of,
    entrant_players,
    lock_tournament,
    next_round_number,
    pair_conflicts,
    pair_create_row,
    persons_for_pairs,
)


@dataclass(frozen=True)
class RowError:
    line: int
    message_en: str
    message_da: str


@dataclass(frozen=True)
class ImportRow:
    """A row of the file, read and checked (``competition.pairs_csv``), with its line."""

    line: int
    pair: PairData


@dataclass
class ImportReport:
    created: list[Pair] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


@transaction.atomic
def pairs_import_csv(
    *,
    tournament: Tournament,
    actor: Actor,
    rows: Sequence[ImportRow],
    refused: Sequence[RowError] = (),
) -> ImportReport:
    """All or nothing: if any row is bad nothing is created and every bad row
    is reported with its line number (``refused``: those the reading refused)."""
    require_organiser(actor, tournament)
    tournament = lock_tournament(tournament)
    errors = list(refused)
    existing = list(active_pairs_of(tournament))
    accepted: list[PairData] = []
    seen: list[Pair] = list(existing)
    for row in rows:
        data = row.pair
        try:
            entrant_players(data, singles=tournament.is_singles)
        except ApplicationError as exc:
            errors.append(RowError(row.line, exc.message_en, exc.message_da))
            continue
        problem = pair_conflicts(data, seen)
        if problem:
            errors.append(RowError(row.line, problem.message_en, problem.message_da))
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
    first_round = next_round_number(tournament)
    created = [
        pair_create_row(
            tournament, data, start_number=start + k, first_round=first_round, check_in=False,
            persons=persons,
        )
        for k, (data, persons) in enumerate(
            zip(accepted, persons_for_pairs(tournament, accepted), strict=True)
        )
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
