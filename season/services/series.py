"""A season and its events: create, change the rules, add and remove tournaments."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict, Unpack

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from core.changes import changes_save
from core.errors import Conflict, NotFound, PermissionDenied
from core.users import Actor, signed_in, signed_in_user
from season.models import Series, SeriesAudit, SeriesEvent, SeriesRole
from season.permissions import require_series_organiser
from season.validators import RESERVED_SLUGS
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


class SeriesOptions(TypedDict, total=False):
    """A season's settings but its name, as the boundary typed them."""

    description: str
    method: str
    qualifiers_per_event: int
    pass_down: bool
    points_table: list[int]
    best_results: int
    final_places: int
    tiebreak: str
    published: bool


class SeriesSettings(SeriesOptions, total=False):
    """Any of a season's settings (``SETTING_FIELDS``), each already checked."""

    name: str


def _known(values: Mapping[str, Any]) -> None:
    unknown = set(values) - set(SETTING_FIELDS)
    if unknown:
        raise TypeError(f"Not settings of a season: {', '.join(sorted(unknown))}")


# An audit row's data: plain JSON values (the changed settings as text, counts, ids, names).
AuditData = Mapping[str, str | int | list[str]]


def series_audit(
    *,
    series: Series,
    actor: Actor,
    action: str,
    target: Series | Tournament | str = "",
    data: AuditData | None = None,
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
def series_create(
    *, actor: Actor, name: str, slug: str | None = None, **options: Unpack[SeriesOptions]
) -> Series:
    """A new season; the actor becomes its organiser (any signed-in user may)."""
    if not getattr(actor, "is_authenticated", False):
        raise PermissionDenied(_("Sign in to create a season."))
    _known(options)
    values = {"name": name, **options}
    slug = slug or _unique_slug(name)
    try:
        with transaction.atomic():
            series = Series.objects.create(slug=slug, **values)
    except IntegrityError:
        raise Conflict(
            "slug_taken",
            _("The short name %(slug)s is already used by another season."),
            params={"slug": slug},
        ) from None
    SeriesRole.objects.create(series=series, user=signed_in_user(actor))
    series_audit(series=series, actor=actor, action="series_create", target=series)
    return series


@transaction.atomic
def series_update(*, series: Series, actor: Actor, **changes: Unpack[SeriesSettings]) -> Series:
    require_series_organiser(actor, series)
    _known(changes)
    series = Series.objects.select_for_update().get(pk=series.pk)
    changed = changes_save(
        instance=series,
        values=changes,
        audit=lambda data: series_audit(
            series=series, actor=actor, action="series_update", target=series, data=data
        ),
    )
    if not changed:
        return series
    series_changed(series=series)
    series.refresh_from_db(fields=["data_version"])
    return series


@transaction.atomic
def series_event_add(
    *, series: Series, actor: Actor, tournament: Tournament, kind: str = SeriesEvent.Kind.QUALIFIER
) -> SeriesEvent:
    """Put a tournament in the season, as a qualifier or as its final.

    The actor must organise both: a season cannot claim someone else's event.
    ``kind`` is one of ``SeriesEvent.Kind`` (checked where it was typed: the
    API's ``EventInputSerializer``, the page's ``EventAddForm``).
    """
    require_series_organiser(actor, series)
    if not is_organiser(actor, tournament):
        raise PermissionDenied(
            _("You can only add tournaments you organise."),
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
            _("%(name)s is already part of this season."),
            params={"name": tournament.name},
        )
    if kind == SeriesEvent.Kind.FINAL and series.events.filter(kind=kind).exists():
        raise Conflict(
            "season_final_exists",
            _("This season has its final already."),
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
            _("That tournament is not part of this season."),
        )
    series_audit(
        series=series,
        actor=actor,
        action="series_event_remove",
        target=event.tournament,
        data={"kind": event.kind},
    )
    series_changed(series=series)
