"""The season's final, made from the qualified pairs in one step."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db import transaction

from core.errors import Conflict
from core.users import Actor
from season.models import Series, SeriesEvent
from season.permissions import require_series_organiser
from season.selectors import SeasonRow, series_overview
from season.services.series import series_audit, series_changed
from tournament.models import Tournament
from tournament.services.registration import SETTING_FIELDS, pair_register, tournament_create

# The final plays like the last qualifier, except for what is its own.
_NOT_COPIED = {"name", "date", "venue", "signup_closes_at", "signup_capacity", "signup_approval"}


@dataclass
class FinalCreated:
    tournament: Tournament
    entered: list[SeasonRow] = field(default_factory=list)
    # Qualified pairs left out: one of the two already plays in a better-ranked pair.
    left_out: list[SeasonRow] = field(default_factory=list)


@transaction.atomic
def series_final_create(
    *,
    series: Series,
    actor: Actor,
    name: str,
    date: datetime.date | str,
    venue: str = "",
    slug: str | None = None,
) -> FinalCreated:
    """Create the final with every qualified pair, seeded by the qualification
    ranking (seed 1 = best), its settings copied from the latest qualifier.

    Refused while a qualifier is unfinished (the ranking could still change)
    or once the season has a final. A person who qualified in two different
    pairs plays in the better-ranked one; the other pair is left out and
    reported, so the organiser can decide who takes its place.
    """
    require_series_organiser(actor, series)
    series = Series.objects.select_for_update().get(pk=series.pk)
    if series.events.filter(kind=SeriesEvent.Kind.FINAL).exists():
        raise Conflict(
            "season_final_exists",
            "This season has its final already.",
            "Denne sæson har allerede sin finale.",
        )
    overview = series_overview(series=series, public=False)
    if not overview.qualifiers:
        raise Conflict(
            "season_no_qualifiers",
            "The season has no qualifiers yet.",
            "Sæsonen har endnu ingen kvalifikationsturneringer.",
        )
    unfinished = [
        c.tournament.name
        for c in overview.calendar
        if c.event.kind == SeriesEvent.Kind.QUALIFIER and c.status != "finished"
    ]
    if unfinished:
        names = ", ".join(unfinished)
        raise Conflict(
            "season_qualifiers_unfinished",
            f"Not every qualifier is finished ({names}): the ranking can still change.",
            f"Ikke alle kvalifikationsturneringer er færdige ({names}): ranglisten kan "
            "stadig ændre sig.",
        )
    template = overview.qualifiers[-1].tournament
    settings = {key: getattr(template, key) for key in SETTING_FIELDS - _NOT_COPIED}
    final = tournament_create(actor=actor, name=name, date=date, venue=venue, slug=slug, **settings)
    result = FinalCreated(tournament=final)
    playing: set[int] = set()
    for row in overview.qualified:
        persons = row.entry.persons
        ids = {p.pk for p in persons if p is not None}
        if ids & playing:
            result.left_out.append(row)
            continue
        playing |= ids
        pair = row.entry.pair
        pair_register(
            tournament=final,
            actor=actor,
            player_1=pair.player_1.name,
            player_2=pair.player_2.name if pair.player_2 else "",
            club=pair.club,
            name=pair.name,
            seed=len(result.entered) + 1,
            persons=persons if None not in persons else None,  # type: ignore[arg-type]
        )
        result.entered.append(row)
    if len(result.entered) < 2:
        raise Conflict(
            "season_too_few_qualified",
            "At least two pairs must have qualified for a final.",
            "Mindst to par skal være kvalificeret til en finale.",
        )
    SeriesEvent.objects.create(series=series, tournament=final, kind=SeriesEvent.Kind.FINAL)
    series_audit(
        series=series,
        actor=actor,
        action="series_final_create",
        target=final,
        data={
            "pairs": len(result.entered),
            "left_out": [r.entry.display_name for r in result.left_out],
        },
    )
    series_changed(series=series)
    return result
