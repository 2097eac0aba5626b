"""Each input field's own checks, shared by the API's serializers and the pages' forms.

One table per kind of input (a tournament's settings, a pair's fields): the
serializer fields and the form fields are built with the validators listed
here, so a limit is written once. Rules that need the stored event (an alert
before the stored time limit, a ruleset fixed once a round started …) are the
services'.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from core.ruleset_field import ruleset_choices
from core.validation import OneLineName, OneOf, WholeNumberRange
from tournament.models import Tournament
from tournament.services.standings import KNOWN_TIEBREAKS

Validator = Callable[[Any], None]

SETTING_INT_LIMITS = {
    "time_limit_minutes": (1, 600),
    "alert_minutes": (1, 600),
    "swiss_rounds": (0, 30),
    "knockout_size": (0, 16),
    "points_win": (0, 100),
    "points_loss": (0, 100),
    "points_bye": (0, 100),
    "signup_capacity": (1, 2000),
}
KNOCKOUT_SIZES = (0, 4, 8, 16)
# Clock minutes per real minute. Below a tenth a 60-minute limit would be
# more than ten hours away, and 1e-300 overflowed every date it touched.
CLOCK_SPEED_MIN = 0.1
CLOCK_SPEED_MAX = 1000.0
# Far-off years carry local mean time offsets (+00:50:20) that no client
# reads back as a time zone.
MOMENT_YEARS = (2000, 2100)


def clock_speed_check(value: float) -> None:
    # NaN compares false with everything, so it fails the range too.
    if not (math.isfinite(value) and CLOCK_SPEED_MIN <= value <= CLOCK_SPEED_MAX):
        raise ValidationError(
            _(
                "Clock speed must be a number from %(low)s to %(high)s "
                "(clock minutes per real minute; 1 is real time)."
            ),
            code="clock_speed_invalid",
            params={"low": f"{CLOCK_SPEED_MIN:g}", "high": f"{CLOCK_SPEED_MAX:g}"},
        )


def tiebreaks_check(value: Sequence[str]) -> None:
    if any(key not in KNOWN_TIEBREAKS for key in value) or len(set(value)) != len(value):
        raise ValidationError(
            _("Unknown or repeated tiebreak; use each of %(known)s at most once."),
            code="tiebreaks_invalid",
            params={"known": ", ".join(sorted(KNOWN_TIEBREAKS))},
        )


def knockout_size_check(value: int) -> None:
    if value not in KNOCKOUT_SIZES:
        raise ValidationError(
            _("The knockout size must be 0, 4, 8 or 16."), code="knockout_size_invalid"
        )


def signup_closes_at_check(value: datetime.datetime) -> None:
    low, high = MOMENT_YEARS
    if not low <= value.year <= high:
        raise ValidationError(
            _("%(field)s must fall in the years %(low)s to %(high)s."),
            code="field_out_of_range",
            params={"field": "signup_closes_at", "low": low, "high": high},
        )


SLUG_REFUSED = _("The short name may only hold lower-case letters, digits and hyphens.")


def slug_check(value: str) -> None:
    if slugify(value) != value:
        raise ValidationError(SLUG_REFUSED, code="slug_invalid")


def _languages() -> list[str]:
    return [code for code, _name in django_settings.LANGUAGES]


def _rulesets() -> list[str]:
    return [name for name, _label in ruleset_choices()]


def _adjudications() -> list[str]:
    return list(Tournament.Adjudication.values)


SETTING_VALIDATORS: dict[str, list[Validator]] = {
    "name": [OneLineName("name")],
    "venue": [OneLineName("venue")],
    "slug": [OneLineName("slug"), slug_check],
    **{key: [WholeNumberRange(key, low, high)] for key, (low, high) in SETTING_INT_LIMITS.items()},
    "ruleset": [
        OneOf(
            _rulesets,
            "ruleset_unknown",
            _("Unknown ruleset; an event plays one of: %(known)s."),
            listed=True,
        )
    ],
    "adjudication": [
        OneOf(
            _adjudications,
            "adjudication_unknown",
            _("Unknown time-out adjudication."),
            listed=False,
        )
    ],
    "language": [
        OneOf(
            _languages,
            "language_unknown",
            _("The event's language must be Danish (da) or English (en)."),
            listed=False,
        )
    ],
    "clock_speed": [clock_speed_check],
    "tiebreaks": [tiebreaks_check],
    "signup_closes_at": [signup_closes_at_check],
}
SETTING_VALIDATORS["knockout_size"].append(knockout_size_check)

PAIR_TEXT_LIMITS = {"player_1": 120, "player_2": 120, "club": 120, "name": 200}
PAIR_INT_LIMITS = {"seed": (1, 100000), "rating": (-100000, 100000)}
PAIR_VALIDATORS: dict[str, list[Validator]] = {
    **{key: [OneLineName(key)] for key in PAIR_TEXT_LIMITS},
    **{key: [WholeNumberRange(key, low, high)] for key, (low, high) in PAIR_INT_LIMITS.items()},
}
