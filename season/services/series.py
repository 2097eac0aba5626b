"""A season and its events: create, change the rules, add and remove tournaments."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from core.request import int_or_none
from core.users import Actor, signed_in, signed_in_user
from season.models import Series, SeriesAudit, SeriesEvent, SeriesRole
from season.permissions import require_series_organiser
from tournament.models import Tournament
from tournament.permissions import is_organiser

# The season's settings, in the order the form shows them (the form and the
# API's output take this list; the input serializer types each one).
SETTING_FIELDS = (
    "name",
    "description",
    "method",
    "qualifiers_per_event",
    "pass_down",
    "points_table",
    "best_results",
    "final_places",
    "tiebreak",
    "published",
)
INT_LIMITS = {"qualifiers_per_event": (1, 64), "best_results": (1, 50), "final_places": (2, 256)}
MAX_TABLE = 200
MAX_POINTS = 1000
# Short names the pages use themselves (/organise/seasons/new/).
RESERVED_SLUGS = frozenset({"new"})


def _invalid(code: str, en: str, da: str, field: str | None = None) -> ApplicationError:
    return ApplicationError(code, en, da, extra={"field": field} if field else None)


def series_audit(
    *, series: Series, actor: Actor, action: str, target: object = "", data: Any = None
) -> None:
    SeriesAudit.objects.create(
        series=series,
        actor=signed_in(actor),
        action=action,
        target=str(target)[:200],
        data=data or {},
    )


def series_changed(*, series: Series) -> None:
    """Bump the version the season's public pages are cached under."""
    Series.objects.filter(pk=series.pk).update(data_version=F("data_version") + 1)


def _clean_int(key: str, value: Any) -> int:
    low, high = INT_LIMITS[key]
    try:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise TypeError
        number = int(value)
    except (TypeError, ValueError):
        raise _invalid(
            "field_not_a_number",
            f"{key} must be a whole number.",
            f"{key} skal være et helt tal.",
            key,
        ) from None
    if not low <= number <= high:
        raise _invalid(
            "field_out_of_range",
            f"{key} must be between {low} and {high}.",
            f"{key} skal være mellem {low} og {high}.",
            key,
        )
    return number


def clean_points_table(value: Any) -> list[int]:
    """A list of points for place 1, 2, …: whole numbers, never rising."""
    if isinstance(value, str):
        value = [part for part in value.replace(";", ",").replace(" ", ",").split(",") if part]
    ok = isinstance(value, list | tuple) and 1 <= len(value) <= MAX_TABLE
    points: list[int] = []
    if ok:
        for item in value:
            number = int_or_none(item, minimum=0, maximum=MAX_POINTS)
            if number is None:
                ok = False
                break
            points.append(number)
    if not ok or any(p > MAX_POINTS for p in points):
        raise _invalid(
            "points_table_invalid",
            f"The points table is a list of whole numbers from 0 to {MAX_POINTS}, first place "
            f"first (e.g. 25, 20, 16, 13), at most {MAX_TABLE} places.",
            f"Pointtabellen er en liste af hele tal fra 0 til {MAX_POINTS}, førstepladsen først "
            f"(fx 25, 20, 16, 13), højst {MAX_TABLE} placeringer.",
            "points_table",
        )
    if any(b > a for a, b in pairwise(points)):
        raise _invalid(
            "points_table_rising",
            "A lower place cannot give more points than a higher one.",
            "En lavere placering kan ikke give flere point end en højere.",
            "points_table",
        )
    return points


def _clean(fields: dict[str, Any]) -> dict[str, Any]:
    unknown = set(fields) - set(SETTING_FIELDS)
    if unknown:
        names = ", ".join(sorted(unknown))
        raise _invalid(
            "unknown_field", f"Unknown setting: {names}.", f"Ukendt indstilling: {names}."
        )
    clean: dict[str, Any] = {}
    for key, value in fields.items():
        if key == "name":
            text = " ".join(str(value or "").split())
            if not text or len(text) > 200:
                raise _invalid(
                    "season_name_invalid",
                    "The name must have 1 to 200 characters.",
                    "Navnet skal have 1 til 200 tegn.",
                    key,
                )
            clean[key] = text
        elif key == "description":
            text = str(value or "").strip()
            if len(text) > 2000:
                raise _invalid(
                    "field_too_long",
                    "The description is longer than 2000 characters.",
                    "Beskrivelsen er længere end 2000 tegn.",
                    key,
                )
            clean[key] = text
        elif key in INT_LIMITS:
            clean[key] = _clean_int(key, value)
        elif key in ("pass_down", "published"):
            if not isinstance(value, bool):
                raise _invalid(
                    "field_not_boolean",
                    f"{key} must be true or false.",
                    f"{key} skal være sand eller falsk.",
                    key,
                )
            clean[key] = value
        elif key == "points_table":
            clean[key] = clean_points_table(value)
        else:
            choices = Series.Method.values if key == "method" else Series.Tiebreak.values
            if value not in choices:
                raise _invalid(
                    f"{key}_unknown",
                    f"{key} must be one of {', '.join(choices)}.",
                    f"{key} skal være en af {', '.join(choices)}.",
                    key,
                )
            clean[key] = value
    return clean


# slugify() drops letters it cannot transliterate; Danish ones are spelt out.
_DANISH = str.maketrans({"æ": "ae", "ø": "oe", "å": "aa", "Æ": "Ae", "Ø": "Oe", "Å": "Aa"})


def _unique_slug(base: str) -> str:
    base = (slugify(base.translate(_DANISH)) or "saeson")[:70]
    slug, n = base, 1
    while slug in RESERVED_SLUGS or Series.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def series_create(*, actor: Actor, name: str, slug: str | None = None, **settings: Any) -> Series:
    """A new season; the actor becomes its organiser (any signed-in user may)."""
    if not getattr(actor, "is_authenticated", False):
        raise PermissionDenied("Sign in to create a season.", "Log ind for at oprette en sæson.")
    values = _clean({"name": name, **settings})
    if slug and (slugify(slug) != slug or len(slug) > 80 or slug in RESERVED_SLUGS):
        raise _invalid(
            "slug_invalid",
            "The short name may only hold lower-case letters, digits and hyphens.",
            "Det korte navn må kun indeholde små bogstaver, tal og bindestreger.",
            "slug",
        )
    slug = slug or _unique_slug(values["name"])
    try:
        with transaction.atomic():
            series = Series.objects.create(slug=slug, **values)
    except IntegrityError:
        raise Conflict(
            "slug_taken",
            f"The short name {slug} is already used by another season.",
            f"Det korte navn {slug} bruges allerede af en anden sæson.",
        ) from None
    SeriesRole.objects.create(series=series, user=signed_in_user(actor))
    series_audit(series=series, actor=actor, action="series_create", target=series)
    return series


@transaction.atomic
def series_update(*, series: Series, actor: Actor, **fields: Any) -> Series:
    require_series_organiser(actor, series)
    series = Series.objects.select_for_update().get(pk=series.pk)
    values = _clean(fields)
    changed = {k: v for k, v in values.items() if getattr(series, k) != v}
    if not changed:
        return series
    for key, value in changed.items():
        setattr(series, key, value)
    series.save(update_fields=list(changed))
    series_audit(
        series=series,
        actor=actor,
        action="series_update",
        target=series,
        data={k: str(v) for k, v in changed.items()},
    )
    series_changed(series=series)
    series.refresh_from_db(fields=["data_version"])
    return series


@transaction.atomic
def series_event_add(
    *, series: Series, actor: Actor, tournament: Tournament, kind: str = SeriesEvent.Kind.QUALIFIER
) -> SeriesEvent:
    """Put a tournament in the season, as a qualifier or as its final.

    The actor must organise both: a season cannot claim someone else's event.
    """
    require_series_organiser(actor, series)
    if not is_organiser(actor, tournament):
        raise PermissionDenied(
            "You can only add tournaments you organise.",
            "Du kan kun tilføje turneringer, du er arrangør af.",
        )
    if kind not in SeriesEvent.Kind.values:
        raise _invalid(
            "event_kind_unknown",
            "An event is a qualifier or the final.",
            "En turnering er en kvalifikation eller finalen.",
            "kind",
        )
    if tournament.is_singles:
        # A season ranks pairs (the same two people) across its events.
        raise Conflict(
            "season_singles_event",
            _(
                "%(name)s is a singles event (one player per entrant); a season ranks "
                "pairs, so it cannot be part of one."
            ),
            params={"name": tournament.name},
        )
    series = Series.objects.select_for_update().get(pk=series.pk)
    if series.events.filter(tournament=tournament).exists():
        raise Conflict(
            "event_in_season",
            f"{tournament.name} is already part of this season.",
            f"{tournament.name} er allerede med i denne sæson.",
        )
    if kind == SeriesEvent.Kind.FINAL and series.events.filter(kind=kind).exists():
        raise Conflict(
            "season_final_exists",
            "This season has its final already.",
            "Denne sæson har allerede sin finale.",
        )
    event = SeriesEvent.objects.create(series=series, tournament=tournament, kind=kind)
    series_audit(
        series=series,
        actor=actor,
        action="series_event_add",
        target=tournament,
        data={"kind": kind},
    )
    series_changed(series=series)
    return event


@transaction.atomic
def series_event_remove(*, series: Series, actor: Actor, event: SeriesEvent) -> None:
    """Take a tournament out of the season (the tournament itself is untouched)."""
    require_series_organiser(actor, series)
    deleted, _rows = SeriesEvent.objects.filter(pk=event.pk, series=series).delete()
    if not deleted:
        raise NotFound(
            "event_not_in_season",
            "That tournament is not part of this season.",
            "Den turnering er ikke med i denne sæson.",
        )
    series_audit(
        series=series,
        actor=actor,
        action="series_event_remove",
        target=event.tournament,
        data={"kind": event.kind},
    )
    series_changed(series=series)
