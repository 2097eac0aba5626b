"""The season's people: merge duplicates, undo a merge, anonymise on request.

The people app does the moving; this module decides what makes no sense
(two people from the same event are two humans) and asks
``tournament.person_permissions`` who may: an organiser of the season acts
here only on people who played in none but their own events, staff on
anyone. Suggested matches (a registration that found a known person of
another organiser) are confirmed or dismissed here too.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from core.errors import Conflict, NotFound
from core.users import Actor
from people.errors import PersonRefused
from people.models import Person, PersonAudit, PersonMatch
from people.services import (
    person_anonymise,
    person_match_decide,
    person_merge,
    person_merge_undo,
    persons_keep_apart,
)
from season.models import Series
from season.permissions import require_series_organiser
from season.services.series import series_audit, series_changed
from signup.services.privacy import signups_anonymise
from tournament.models import Player
from tournament.person_permissions import (
    persons_manageable,
    require_may_manage_persons,
)
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
    require_may_manage_persons(actor, survivor, duplicate)
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
    # The survivor holds every row the merge moved: who may manage it may undo.
    require_may_manage_persons(actor, merge.person)
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
    require_may_manage_persons(actor, person)
    renamed = person_anonymise(person=person, actor=actor, context=_context(series))
    players_anonymise(persons=renamed, actor=actor)
    signups_anonymise(persons=renamed)
    series_audit(
        series=series, actor=actor, action="person_anonymise", target=f"person {person.pk}"
    )
    series_changed(series=series)
    person.refresh_from_db()
    return person


@transaction.atomic
def person_match_confirm(*, match: PersonMatch, actor: Actor) -> PersonMatch:
    """The suggested match is one human: the new person is merged into the known
    one (undone like any merge). Only for someone who may manage both."""
    require_may_manage_persons(actor, match.new, match.known)
    try:
        return person_match_decide(
            match=match, actor=actor, confirm=True, context=f"match:{match.pk}"
        )
    except PersonRefused as error:
        raise _refused(error) from None


@transaction.atomic
def person_match_dismiss(*, match: PersonMatch, actor: Actor) -> PersonMatch:
    """Two different humans: the suggestion is closed and never shown again.
    For someone who may manage either of them (it changes neither)."""
    if not persons_manageable(actor=actor, person_ids={match.new_id, match.known_id}):
        require_may_manage_persons(actor, match.new)
    try:
        return person_match_decide(match=match, actor=actor, confirm=False)
    except PersonRefused as error:
        raise _refused(error) from None


@transaction.atomic
def person_match_undo(*, match: PersonMatch, actor: Actor) -> PersonMatch:
    """Undo a confirmed match's merge; the suggestion is open again. For who
    may manage the known person (the survivor, holding every row it moved)."""
    require_may_manage_persons(actor, match.known)
    merge = (
        PersonAudit.objects.filter(
            action=PersonAudit.Action.MERGE, context=f"match:{match.pk}", undone_at__isnull=True
        )
        .order_by("-pk")
        .first()
    )
    if merge is None or match.status != PersonMatch.Status.CONFIRMED:
        raise Conflict(
            "person_match_not_undoable",
            _("This suggestion was not confirmed, or its merge is undone already."),
        )
    try:
        person_merge_undo(merge=merge, actor=actor, context=f"match:{match.pk}")
    except PersonRefused as error:
        raise _refused(error) from None
    PersonMatch.objects.filter(pk=match.pk).update(
        status=PersonMatch.Status.OPEN, decided_by=None, decided_at=None
    )
    match.refresh_from_db()
    return match


@transaction.atomic
def season_persons_apart(
    *, series: Series, actor: Actor, first: Person, second: Person
) -> PersonMatch:
    """A likely duplicate of the season is two humans: never suggested again.
    For an organiser of the season who may manage either of them."""
    require_series_organiser(actor, series)
    _events_of(series, first)
    _events_of(series, second)
    if not persons_manageable(actor=actor, person_ids={first.pk, second.pk}):
        require_may_manage_persons(actor, first)
    try:
        apart = persons_keep_apart(
            first=first, second=second, actor=actor, context=_context(series)
        )
    except PersonRefused as error:
        raise _refused(error) from None
    series_audit(
        series=series,
        actor=actor,
        action="persons_apart",
        target=f"person {first.pk}",
        data={"first": first.pk, "second": second.pk},
    )
    return apart
