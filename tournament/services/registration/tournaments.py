"""A tournament's settings, checked once for create and update; creating and editing events."""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings as django_settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, Conflict, PermissionDenied
from core.users import Actor, signed_in_user
from tournament.models import (
    SINGLES_RULESETS,
    TOURNAMENT_SETTINGS,
    Round,
    Tournament,
    TournamentRole,
)
from tournament.permissions import require_organiser
from tournament.services.audit import audit_record, tournament_data_changed
from tournament.services.registration._common import (
    _clean_int,
    _clean_text,
    _invalid,
    _optional_int,
)
from tournament.services.standings import KNOWN_TIEBREAKS

SETTING_FIELDS = frozenset(TOURNAMENT_SETTINGS)
INT_LIMITS = {
    "time_limit_minutes": (1, 600),
    "alert_minutes": (1, 600),
    "swiss_rounds": (0, 30),
    "knockout_size": (0, 16),
    "points_win": (0, 100),
    "points_loss": (0, 100),
    "points_bye": (0, 100),
}
BOOL_FIELDS = ("third_place_game", "pause_clock_on_call", "published", "signup_approval")
MAX_SIGNUP_CAPACITY = 2000
# Any number parse_int takes (18 digits); the range of each setting is checked after.


def _clean_date(value: Any) -> datetime.date:
    if isinstance(value, datetime.date):
        return value
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        raise _invalid(
            "field_bad_date",
            "date must be a date (YYYY-MM-DD).",
            "date skal være en dato (ÅÅÅÅ-MM-DD).",
            field="date",
        ) from None


def _clean_settings(fields: dict[str, Any]) -> dict[str, Any]:
    unknown = set(fields) - SETTING_FIELDS
    if unknown:
        names = ", ".join(sorted(unknown))
        raise _invalid(
            "unknown_field", f"Unknown setting: {names}.", f"Ukendt indstilling: {names}."
        )
    clean: dict[str, Any] = {}
    for key, value in fields.items():
        if key == "name":
            clean[key] = _clean_text(value, field=key, max_length=200, required=True)
        elif key == "venue":
            clean[key] = _clean_text(value, field=key, max_length=200, required=False)
        elif key == "date":
            clean[key] = _clean_date(value)
        elif key in INT_LIMITS:
            low, high = INT_LIMITS[key]
            clean[key] = _clean_int(value, field=key, low=low, high=high)
        elif key in BOOL_FIELDS:
            if not isinstance(value, bool):
                raise _invalid(
                    "field_not_boolean",
                    f"{key} must be true or false.",
                    f"{key} skal være sand eller falsk.",
                    field=key,
                )
            clean[key] = value
        elif key == "ruleset":
            if value not in Tournament.Ruleset.values:
                known = ", ".join(Tournament.Ruleset.values)
                raise _invalid(
                    "ruleset_unknown",
                    f"Unknown ruleset; an event plays one of: {known}.",
                    f"Ukendt regelsæt; en turnering spiller et af: {known}.",
                    field=key,
                )
            clean[key] = value
        elif key == "adjudication":
            if value not in Tournament.Adjudication.values:
                raise _invalid(
                    "adjudication_unknown",
                    "Unknown time-out adjudication.",
                    "Ukendt afgørelse ved tidsudløb.",
                    field=key,
                )
            clean[key] = value
        elif key == "language":
            if value not in dict(django_settings.LANGUAGES):
                raise _invalid(
                    "language_unknown",
                    "The event's language must be Danish (da) or English (en).",
                    "Turneringens sprog skal være dansk (da) eller engelsk (en).",
                    field=key,
                )
            clean[key] = value
        elif key == "clock_speed":
            clean[key] = _clean_clock_speed(value)
        elif key == "tiebreaks":
            clean[key] = _clean_tiebreaks(value)
        elif key == "signup_capacity":
            clean[key] = _optional_int(value, field=key, low=1, high=MAX_SIGNUP_CAPACITY)
        elif key == "signup_closes_at":
            clean[key] = _clean_moment(value, field=key)
    return clean


MOMENT_YEARS = (2000, 2100)


def _clean_moment(value: Any, *, field: str) -> datetime.datetime | None:
    """A point in time, or None; a time without a zone is Danish time."""
    if value is None or value == "":
        return None
    moment = value
    if not isinstance(moment, datetime.datetime):
        try:
            moment = datetime.datetime.fromisoformat(str(value))
        except ValueError:
            raise _invalid(
                "field_bad_datetime",
                f"{field} must be a date and time (YYYY-MM-DDTHH:MM).",
                f"{field} skal være en dato og et klokkeslæt (ÅÅÅÅ-MM-DDTTT:MM).",
                field=field,
            ) from None
    if not MOMENT_YEARS[0] <= moment.year <= MOMENT_YEARS[1]:
        # Far-off years carry local mean time offsets (+00:50:20) that no
        # client reads back as a time zone.
        low, high = MOMENT_YEARS
        raise _invalid(
            "field_out_of_range",
            f"{field} must fall in the years {low} to {high}.",
            f"{field} skal ligge i årene {low} til {high}.",
            field=field,
        )
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment


# Clock minutes per real minute. Below a tenth a 60-minute limit would be
# more than ten hours away, and 1e-300 overflowed every date it touched.
CLOCK_SPEED_MIN = 0.1
CLOCK_SPEED_MAX = 1000.0


def _clean_clock_speed(value: Any) -> float:
    speed = value if isinstance(value, int | float) and not isinstance(value, bool) else None
    if speed is None or not CLOCK_SPEED_MIN <= speed <= CLOCK_SPEED_MAX:
        raise _invalid(
            "clock_speed_invalid",
            f"Clock speed must be a number from {CLOCK_SPEED_MIN:g} to {CLOCK_SPEED_MAX:g} "
            "(clock minutes per real minute; 1 is real time).",
            f"Urets hastighed skal være et tal fra {CLOCK_SPEED_MIN:g} til {CLOCK_SPEED_MAX:g} "
            "(urminutter pr. rigtigt minut; 1 er rigtig tid).",
            field="clock_speed",
        )
    return float(speed)


def _clean_tiebreaks(value: Any) -> list[str]:
    if not isinstance(value, list | tuple) or not all(isinstance(k, str) for k in value):
        raise _invalid(
            "tiebreaks_invalid",
            "The tiebreak order must be a list of tiebreak names.",
            "Rækkefølgen af tiebreaks skal være en liste af navne.",
            field="tiebreaks",
        )
    unknown = [k for k in value if k not in KNOWN_TIEBREAKS]
    if unknown or len(set(value)) != len(value):
        known = ", ".join(sorted(KNOWN_TIEBREAKS))
        raise _invalid(
            "tiebreaks_invalid",
            f"Unknown or repeated tiebreak; use each of {known} at most once.",
            f"Ukendt eller gentaget tiebreak; brug hver af {known} højst én gang.",
            field="tiebreaks",
        )
    return list(value)


def tournament_settings_check(fields: dict[str, Any]) -> dict[str, Any]:
    """The settings among ``fields`` checked as an organiser's edit is (a restored backup).

    Other keys are ignored; returns the cleaned settings.
    """
    values = _clean_settings({k: v for k, v in fields.items() if k in SETTING_FIELDS})
    full = {
        f.name: f.get_default() for f in Tournament._meta.concrete_fields if f.name in INT_LIMITS
    }
    full.update({k: v for k, v in values.items() if k in INT_LIMITS})
    _check_consistency(full)
    return values


def _check_consistency(values: dict[str, Any]) -> None:
    if values["alert_minutes"] >= values["time_limit_minutes"]:
        raise _invalid(
            "alert_not_before_limit",
            "The judge alert must come before the time limit.",
            "Dommeralarmen skal komme før tidsgrænsen.",
            field="alert_minutes",
        )
    if values["knockout_size"] not in (0, 4, 8, 16):
        raise _invalid(
            "knockout_size_invalid",
            "The knockout size must be 0, 4, 8 or 16.",
            "Knockout-størrelsen skal være 0, 4, 8 eller 16.",
            field="knockout_size",
        )
    if values["points_win"] <= values["points_loss"]:
        raise _invalid(
            "points_invalid",
            "A win must give more points than a loss.",
            "En sejr skal give flere point end et nederlag.",
            field="points_win",
        )


def _unique_slug(base: str) -> str:
    base = (slugify(base) or "turnering")[:70]
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def tournament_create(
    *,
    actor: Actor,
    name: str,
    date: datetime.date | str,
    slug: str | None = None,
    venue: str = "",
    **settings: Any,
) -> Tournament:
    """Create an event; the actor becomes its organiser.

    Any signed-in user may create an event (accounts are made by the site
    administrators; there is no self sign-up).
    """
    if not getattr(actor, "is_authenticated", False):
        raise PermissionDenied(
            "Sign in to create a tournament.", "Log ind for at oprette en turnering."
        )
    values = _clean_settings({"name": name, "date": date, "venue": venue, **settings})
    full = {
        f.name: f.get_default() for f in Tournament._meta.concrete_fields if f.name in INT_LIMITS
    }
    full.update(values)
    _check_consistency(full)
    if slug:
        slug = _clean_text(slug, field="slug", max_length=80, required=True)
        if slugify(slug) != slug:
            raise _invalid(
                "slug_invalid",
                "The short name may only hold lower-case letters, digits and hyphens.",
                "Det korte navn må kun indeholde små bogstaver, tal og bindestreger.",
                field="slug",
            )
        if Tournament.objects.filter(slug=slug).exists():
            raise Conflict(
                "slug_taken",
                f"The short name {slug} is already used by another tournament.",
                f"Det korte navn {slug} bruges allerede af en anden turnering.",
            )
    else:
        slug = _unique_slug(values["name"])
    try:
        with transaction.atomic():
            tournament = Tournament.objects.create(slug=slug, **values)
    except IntegrityError:
        raise Conflict(
            "slug_taken",
            f"The short name {slug} is already used by another tournament.",
            f"Det korte navn {slug} bruges allerede af en anden turnering.",
        ) from None
    TournamentRole.objects.create(
        tournament=tournament, user=signed_in_user(actor), role=TournamentRole.Role.ORGANISER
    )
    audit_record(tournament=tournament, actor=actor, action="tournament_create", target=tournament)
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, actor: Actor, **fields: Any) -> Tournament:
    require_organiser(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    values = _clean_settings(fields)
    full = {f: getattr(tournament, f) for f in INT_LIMITS}
    full.update({k: v for k, v in values.items() if k in INT_LIMITS})
    _check_consistency(full)
    swiss_paired = tournament.rounds.filter(kind=Round.Kind.SWISS).count()
    if "swiss_rounds" in values and values["swiss_rounds"] < swiss_paired:
        raise _invalid(
            "swiss_rounds_below_paired",
            f"{swiss_paired} Swiss rounds are already paired.",
            f"{swiss_paired} schweizerrunder er allerede parret.",
            field="swiss_rounds",
        )
    if values.get("ruleset", tournament.ruleset) != tournament.ruleset and (
        tournament.rounds.exists()
    ):
        raise _invalid(
            "ruleset_fixed",
            "A round has started; the ruleset can no longer change.",
            "En runde er begyndt; regelsættet kan ikke længere ændres.",
            field="ruleset",
        )
    new_ruleset = values.get("ruleset", tournament.ruleset)
    if (new_ruleset in SINGLES_RULESETS) != tournament.is_singles and tournament.pairs.exists():
        raise ApplicationError(
            "ruleset_entrants_registered",
            _(
                "Entrants are registered: the event cannot change between singles "
                "(one player per entrant) and pairs. Remove the entrants first."
            ),
            extra={"field": "ruleset"},
        )
    knockout_started = tournament.rounds.filter(kind=Round.Kind.KNOCKOUT).exists()
    if knockout_started and (
        values.get("knockout_size", tournament.knockout_size) != tournament.knockout_size
        or values.get("third_place_game", tournament.third_place_game)
        != tournament.third_place_game
    ):
        raise _invalid(
            "knockout_started",
            "The knockout has started; its size and third-place game can no longer change.",
            "Knockout-fasen er begyndt; størrelse og bronzekamp kan ikke længere ændres.",
        )
    changed = {k: v for k, v in values.items() if getattr(tournament, k) != v}
    if not changed:
        return tournament
    for key, value in changed.items():
        setattr(tournament, key, value)
    tournament.save(update_fields=list(changed))
    if "points_bye" in changed:
        # A bye scores the configured points, also after the setting changes.
        from tournament.models import Bye

        Bye.objects.filter(round__tournament=tournament, round__kind=Round.Kind.SWISS).update(
            points=changed["points_bye"]
        )
    audit_record(
        tournament=tournament,
        actor=actor,
        action="tournament_update",
        target=tournament,
        data={k: str(v) for k, v in changed.items()},
    )
    tournament_data_changed(tournament=tournament)
    tournament.refresh_from_db(fields=["data_version"])
    return tournament
