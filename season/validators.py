"""Each season setting's own checks, shared by the API's serializers and the pages' form."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from core.validation import OneLineName, OneOf, WholeNumberRange
from season.models import Series
from tournament.validators import SLUG_REFUSED, Validator, slug_check

SEASON_INT_LIMITS = {
    "qualifiers_per_event": (1, 64),
    "best_results": (1, 50),
    "final_places": (2, 256),
}
MAX_TABLE = 200
MAX_POINTS = 1000
# Short names the pages use themselves (/organise/seasons/new/).
RESERVED_SLUGS = frozenset({"new"})


def _table_invalid() -> ValidationError:
    return ValidationError(
        _(
            "The points table is a list of whole numbers from 0 to %(max_points)s, first "
            "place first (e.g. 25, 20, 16, 13), at most %(max_places)s places."
        ),
        code="points_table_invalid",
        params={"max_points": MAX_POINTS, "max_places": MAX_TABLE},
    )


def points_table_check(points: list[int]) -> None:
    """Points for place 1, 2, …: whole numbers from 0 to MAX_POINTS, never rising."""
    if not 1 <= len(points) <= MAX_TABLE or any(not 0 <= p <= MAX_POINTS for p in points):
        raise _table_invalid()
    if any(b > a for a, b in pairwise(points)):
        raise ValidationError(
            _("A lower place cannot give more points than a higher one."),
            code="points_table_rising",
        )


def points_table_read(text: str) -> list[int]:
    """A points table typed as text ("25, 20 16;13"): the numbers, or a refusal."""
    parts = [part for part in text.replace(";", ",").replace(" ", ",").split(",") if part]
    if not all(part.isascii() and part.isdigit() and len(part) <= 6 for part in parts):
        raise _table_invalid()
    return [int(part) for part in parts]


def season_slug_check(value: str) -> None:
    slug_check(value)
    if value in RESERVED_SLUGS:
        raise ValidationError(SLUG_REFUSED, code="slug_invalid")


def _methods() -> list[str]:
    return list(Series.Method.values)


def _tiebreaks() -> list[str]:
    return list(Series.Tiebreak.values)


SEASON_VALIDATORS: dict[str, list[Validator]] = {
    **{key: [WholeNumberRange(key, low, high)] for key, (low, high) in SEASON_INT_LIMITS.items()},
    "points_table": [points_table_check],
    "method": [
        OneOf(_methods, "method_unknown", _("method must be one of %(known)s."), listed=True)
    ],
    "tiebreak": [
        OneOf(_tiebreaks, "tiebreak_unknown", _("tiebreak must be one of %(known)s."), listed=True)
    ],
    "slug": [season_slug_check],
    "name": [OneLineName("name")],
}


def season_validators(name: str) -> list[Validator]:
    return SEASON_VALIDATORS.get(name, [])


def collapse_spaces(value: Any) -> Any:
    return " ".join(value.split()) if isinstance(value, str) else value
