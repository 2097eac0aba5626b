"""Creating and editing events: the settings arrive checked; the rules between them
and against the running event are checked here."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypedDict, Unpack

from django.db import IntegrityError, transaction
from django.db.models import Field, Q
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from core.changes import changes_save
from core.errors import ApplicationError, Conflict, PermissionDenied
from core.users import Actor, signed_in_user
from tournament.models import (
    TOURNAMENT_SETTINGS,
    Round,
    Tournament,
    TournamentRole,
    singles_rulesets,
)
from tournament.permissions import require_organiser
from tournament.services.audit import audit_record, tournament_data_changed
from tournament.signals import tournament_settings_changed

SETTING_FIELDS = frozenset(TOURNAMENT_SETTINGS)


class TournamentOptions(TypedDict, total=False):
    """A tournament's settings but its name and date, as the boundary typed them."""

    venue: str
    ruleset: str
    time_limit_minutes: int
    alert_minutes: int
    swiss_rounds: int
    knockout_size: int
    third_place_game: bool
    points_win: int
    points_loss: int
    points_bye: int
    tiebreaks: list[str]
    adjudication: str
    pause_clock_on_call: bool
    clock_speed: float
    published: bool
    language: str
    signup_closes_at: datetime.datetime | None
    signup_capacity: int | None
    signup_approval: bool


class TournamentSettings(TournamentOptions, total=False):
    """Any of a tournament's settings (``TOURNAMENT_SETTINGS``), each already checked."""

    name: str
    date: datetime.date


class RelatedSettings(TypedDict):
    """The settings that must agree with each other, whichever of them changes."""

    alert_minutes: int
    time_limit_minutes: int
    points_win: int
    points_loss: int


def tournament_settings_consistent(values: RelatedSettings) -> None:
    """Refuse settings that contradict each other (the judge alert after the time
    limit, a win worth no more than a loss)."""
    if values["alert_minutes"] >= values["time_limit_minutes"]:
        raise ApplicationError(
            "alert_not_before_limit",
            _("The judge alert must come before the time limit."),
            extra={"field": "alert_minutes"},
        )
    if values["points_win"] <= values["points_loss"]:
        raise ApplicationError(
            "points_invalid",
            _("A win must give more points than a loss."),
            extra={"field": "points_win"},
        )


def _default(name: str) -> int:
    field = Tournament._meta.get_field(name)
    assert isinstance(field, Field)
    default: int = field.get_default()
    return default


def tournament_settings_defaults(values: TournamentOptions) -> RelatedSettings:
    """The settings ``tournament_settings_consistent`` reads: from ``values``, else the defaults."""
    return RelatedSettings(
        alert_minutes=values.get("alert_minutes", _default("alert_minutes")),
        time_limit_minutes=values.get("time_limit_minutes", _default("time_limit_minutes")),
        points_win=values.get("points_win", _default("points_win")),
        points_loss=values.get("points_loss", _default("points_loss")),
    )


def _slug_taken(slug: str) -> Conflict:
    return Conflict(
        "slug_taken",
        _("The short name %(slug)s is already used by another tournament."),
        params={"slug": slug},
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
    date: datetime.date,
    slug: str | None = None,
    **options: Unpack[TournamentOptions],
) -> Tournament:
    """Create an event; the actor becomes its organiser.

    Any signed-in user may create an event (accounts are made by the site
    administrators; there is no self sign-up).
    """
    if not getattr(actor, "is_authenticated", False):
        raise PermissionDenied(_("Sign in to create a tournament."))
    _known(options)
    tournament_settings_consistent(tournament_settings_defaults(options))
    values = {"name": name, "date": date, **options}
    if slug and Tournament.objects.filter(slug=slug).exists():
        raise _slug_taken(slug)
    slug = slug or _unique_slug(name)
    try:
        with transaction.atomic():
            tournament = Tournament.objects.create(slug=slug, **values)
    except IntegrityError:
        raise _slug_taken(slug) from None
    TournamentRole.objects.create(
        tournament=tournament, user=signed_in_user(actor), role=TournamentRole.Role.ORGANISER
    )
    audit_record(tournament=tournament, actor=actor, action="tournament_create", target=tournament)
    return tournament


def _known(values: Mapping[str, Any]) -> None:
    unknown = set(values) - SETTING_FIELDS
    if unknown:
        raise TypeError(f"Not settings of a tournament: {', '.join(sorted(unknown))}")


def _clock_speed_check(tournament: Tournament, changes: Mapping[str, Any]) -> None:
    """A rehearsal clock speed is set before play: once a round has started its
    clocks run at the speed they started with, and a game's minutes must mean
    the same for every table and round of the event."""
    if "clock_speed" not in changes or changes["clock_speed"] == tournament.clock_speed:
        return
    started = tournament.rounds.filter(
        Q(started_at__isnull=False) | Q(status__in=[Round.Status.IN_PROGRESS, Round.Status.CLOSED])
    ).exists()
    if started:
        raise ApplicationError(
            "clock_speed_fixed",
            _("A round has started: the clock speed can no longer change. Rehearse with a "
              "fast clock on a test event made for it."),
            extra={"field": "clock_speed"},
        )  # fmt: skip


@transaction.atomic
def tournament_publish(*, tournament: Tournament, actor: Actor, published: bool) -> Tournament:
    """Make the event public (its pages, results and ratings), or take it off the public pages.

    A new event starts unpublished; publishing is a setting change like any
    other, so the ratings follow it (``tournament_settings_changed``).
    """
    return tournament_update(tournament=tournament, actor=actor, published=published)


@transaction.atomic
def tournament_update(
    *, tournament: Tournament, actor: Actor, **changes: Unpack[TournamentSettings]
) -> Tournament:
    """Change settings; those the running event depends on are fixed once it uses them."""
    require_organiser(actor, tournament)
    _known(changes)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament_settings_consistent(
        RelatedSettings(
            alert_minutes=changes.get("alert_minutes", tournament.alert_minutes),
            time_limit_minutes=changes.get("time_limit_minutes", tournament.time_limit_minutes),
            points_win=changes.get("points_win", tournament.points_win),
            points_loss=changes.get("points_loss", tournament.points_loss),
        )
    )
    swiss_paired = tournament.rounds.filter(kind=Round.Kind.SWISS).count()
    if "swiss_rounds" in changes and changes["swiss_rounds"] < swiss_paired:
        raise ApplicationError(
            "swiss_rounds_below_paired",
            _("%(n)s Swiss rounds are already paired."),
            params={"n": swiss_paired},
            extra={"field": "swiss_rounds"},
        )
    if changes.get("ruleset", tournament.ruleset) != tournament.ruleset and (
        tournament.rounds.exists()
    ):
        raise ApplicationError(
            "ruleset_fixed",
            _("A round has started; the ruleset can no longer change."),
            extra={"field": "ruleset"},
        )
    new_ruleset = changes.get("ruleset", tournament.ruleset)
    if (new_ruleset in singles_rulesets()) != tournament.is_singles and tournament.pairs.exists():
        raise ApplicationError(
            "ruleset_entrants_registered",
            _(
                "Entrants are registered: the event cannot change between singles "
                "(one player per entrant) and pairs. Remove the entrants first."
            ),
            extra={"field": "ruleset"},
        )
    _clock_speed_check(tournament, changes)
    knockout_started = tournament.rounds.filter(kind=Round.Kind.KNOCKOUT).exists()
    if knockout_started and (
        changes.get("knockout_size", tournament.knockout_size) != tournament.knockout_size
        or changes.get("third_place_game", tournament.third_place_game)
        != tournament.third_place_game
    ):
        raise ApplicationError(
            "knockout_started",
            _("The knockout has started; its size and third-place game can no longer change."),
        )
    changed = changes_save(
        instance=tournament,
        values=changes,
        audit=lambda data: audit_record(
            tournament=tournament,
            actor=actor,
            action="tournament_update",
            target=tournament,
            data=data,
        ),
    )
    if not changed:
        return tournament
    if "points_bye" in changed:
        # A bye scores the configured points, also after the setting changes.
        from tournament.models import Bye

        Bye.objects.filter(round__tournament=tournament, round__kind=Round.Kind.SWISS).update(
            points=changed["points_bye"]
        )
    tournament_data_changed(tournament=tournament)
    tournament.refresh_from_db(fields=["data_version"])
    # Publishing or unpublishing changes which of its games the ratings count.
    tournament_settings_changed.send(
        sender=Tournament, tournament=tournament, fields=frozenset(changed)
    )
    return tournament
