"""Who may act on a person (merge, undo a merge, anonymise, decide a
suggested match), and which known people an event may link its players to.

The one place that decides it. A person is shared by every event they
played in, so acting on them acts on other organisers' events too:

* the federation's staff may act on anyone;
* an organiser may act on a person who appears in their own events only
  (every event the person played in or signed up to has them as organiser);
* nobody else, and nobody but staff for a person who appears in no event.

An event links a newly registered player to a known person by name and club
only when one of its own organisers may manage that person; any other match
is a suggestion (``people.models.PersonMatch``).

"Appears in an event": any row pointing at the person that also points at a
tournament (a player, a sign-up), found through Django's model registry like
a merge finds what to move, so this module imports no app above it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.errors import PermissionDenied
from core.users import Actor, signed_in
from people.models import Person, PersonAudit, PersonMatch
from people.services import LinkPolicy
from tournament.models import Tournament, TournamentRole


def _appearances() -> list[tuple[type[models.Model], str, str]]:
    """Each (model, person field, tournament field) of a row tying a person to an event."""
    found = []
    for relation in Person._meta.related_objects:
        model = relation.related_model
        if not relation.one_to_many or model in (PersonAudit, PersonMatch, Person):
            continue
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model is Tournament:
                found.append((model, relation.field.name, field.name))
    return found


def person_events(*, person_ids: Iterable[int]) -> dict[int, set[int]]:
    """The tournaments each person appears in (a player, a sign-up)."""
    ids = set(person_ids)
    events: dict[int, set[int]] = {pk: set() for pk in ids}
    if not ids:
        return events
    for model, person_field, tournament_field in _appearances():
        rows = (
            model._default_manager.filter(**{f"{person_field}__in": ids})
            .values_list(person_field, tournament_field)
            .distinct()
        )
        for person_id, tournament_id in rows:
            events[person_id].add(tournament_id)
    return events


def _organisers(tournament_ids: Iterable[int]) -> dict[int, set[int]]:
    found: dict[int, set[int]] = defaultdict(set)
    rows = TournamentRole.objects.filter(
        tournament__in=set(tournament_ids), role=TournamentRole.Role.ORGANISER
    ).values_list("tournament_id", "user_id")
    for tournament_id, user_id in rows:
        found[tournament_id].add(user_id)
    return found


def _owners(events: dict[int, set[int]]) -> dict[int, set[int]]:
    """The users who organise every event each person appears in (none for no event)."""
    organisers = _organisers({t for ids in events.values() for t in ids})
    owners: dict[int, set[int]] = {}
    for person_id, ids in events.items():
        each = [organisers[tournament_id] for tournament_id in ids]
        owners[person_id] = set.intersection(*each) if each else set()
    return owners


def is_staff(actor: Actor | None) -> bool:
    """The federation's staff (active, ``is_staff``), who may act on every person."""
    user = signed_in(actor)
    return user is not None and user.is_active and user.is_staff


def persons_manageable(*, actor: Actor | None, person_ids: Collection[int]) -> set[int]:
    """Those of ``person_ids`` that ``actor`` may merge, anonymise or decide on."""
    user = signed_in(actor)
    if user is None or not user.is_active:
        return set()
    if user.is_staff:
        return set(person_ids)
    owners = _owners(person_events(person_ids=person_ids))
    return {pk for pk, users in owners.items() if user.pk in users}


def may_manage_person(actor: Actor | None, person: Person) -> bool:
    """Whether ``actor`` may merge, anonymise or decide on ``person``: staff, or
    an organiser of every event the person appears in."""
    return person.pk in persons_manageable(actor=actor, person_ids=[person.pk])


def require_may_manage_persons(actor: Actor | None, *persons: Person) -> None:
    ids = {p.pk for p in persons}
    if persons_manageable(actor=actor, person_ids=ids) != ids:
        raise PermissionDenied(
            _(
                "This person also plays in other organisers' events: only the federation's "
                "staff may change them."
            ),
        )


def link_policy(tournament: Tournament) -> LinkPolicy:
    """For ``people.services.persons_for_names``: the known people ``tournament``
    may link its players to, those one of its own organisers may manage.

    Decided by the event, not by who types (staff registering into an
    organiser's event links only that organiser's people), so a registration,
    an import and an online sign-up follow one rule.
    """

    def may_link(candidates: list[Person]) -> set[int]:
        if not candidates:
            return set()
        mine = _organisers([tournament.pk])[tournament.pk]
        owners = _owners(person_events(person_ids=[p.pk for p in candidates]))
        return {pk for pk, users in owners.items() if users & mine}

    return may_link
