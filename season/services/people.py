"""The season's people: merge duplicates, undo a merge, anonymise on request.

The people app does the moving; this module decides who may (an organiser
of the season, for people who played in it) and what makes no sense (two
people from the same event are two humans).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from core.errors import Conflict, NotFound
from core.users import Actor
from people.errors import PersonRefused
from people.models import Person, PersonAudit
from people.services import person_anonymise, person_merge, person_merge_undo
from season.models import Series
from season.permissions import require_series_organiser
from season.services.series import series_audit, series_changed
from signup.services.privacy import signups_anonymise
from tournament.models import Player
from tournament.services.players import players_anonymise


def _context(series: Series) -> str:
    return f"season:{series.slug}"


def _events_of(series: Series, person: Person) -> set[int]:
    events = set(
        Player.objects.filter(person=person, tournament__season_events__series=series)
        .values_list("tournament_id", flat=True)
        .distinct()
    )
    if not events:
        raise NotFound(
            "person_not_in_season",
            _("%(name)s has not played in this season."),
            params={"name": person.name},
        )
    return events


def _refused(error: PersonRefused) -> Conflict:
    return Conflict(error.code, error.message_en, error.message_da)


@transaction.atomic
def season_persons_merge(
    *, series: Series, actor: Actor, survivor: Person, duplicate: Person
) -> PersonAudit:
    """``duplicate`` is the same human as ``survivor`` (both played in the season)."""
    require_series_organiser(actor, series)
    shared = _events_of(series, survivor) & _events_of(series, duplicate)
    if shared:
        raise Conflict(
            "persons_in_same_event",
            _(
                "%(name)s and %(other)s played in the same tournament: they are two "
                "different people."
            ),
            params={"name": survivor.name, "other": duplicate.name},
        )
    try:
        merge = person_merge(
            survivor=survivor, duplicate=duplicate, actor=actor, context=_context(series)
        )
    except PersonRefused as error:
        raise _refused(error) from None
    series_audit(
        series=series,
        actor=actor,
        action="person_merge",
        target=f"person {survivor.pk}",
        data={"survivor": survivor.pk, "duplicate": duplicate.pk, "merge": merge.pk},
    )
    series_changed(series=series)
    return merge


@transaction.atomic
def season_person_merge_undo(*, series: Series, actor: Actor, merge: PersonAudit) -> PersonAudit:
    require_series_organiser(actor, series)
    if merge.action != PersonAudit.Action.MERGE or merge.context != _context(series):
        raise NotFound(
            "merge_not_in_season",
            _("That merge was not made in this season."),
        )
    try:
        undo = person_merge_undo(merge=merge, actor=actor, context=_context(series))
    except PersonRefused as error:
        raise _refused(error) from None
    series_audit(
        series=series,
        actor=actor,
        action="person_merge_undo",
        target=f"person {merge.person_id}",
        data={"merge": merge.pk},
    )
    series_changed(series=series)
    return undo


@transaction.atomic
def season_person_anonymise(*, series: Series, actor: Actor, person: Person) -> Person:
    """On the person's request: their name is replaced everywhere it was copied
    (players in every event, sign-ups, the events' audit trails), their club,
    consent and sign-up emails are deleted. Results stay, under the new name."""
    require_series_organiser(actor, series)
    _events_of(series, person)
    renamed = person_anonymise(person=person, actor=actor, context=_context(series))
    players_anonymise(persons=renamed, actor=actor)
    signups_anonymise(persons=renamed)
    series_audit(
        series=series, actor=actor, action="person_anonymise", target=f"person {person.pk}"
    )
    series_changed(series=series)
    person.refresh_from_db()
    return person
