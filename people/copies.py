"""People copied from another installation (an event handed to a venue laptop).

A copy is a new person of this database, never matched to an existing one by
name: the installation that sent it keeps the link to its own person by id.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from people.models import Person


@dataclass(frozen=True)
class PersonCopy:
    name: str
    club: str
    publish_consent: bool


def persons_copy(*, people: list[PersonCopy]) -> list[Person]:
    """Create one person per copy, in order (consent as the sender recorded it)."""
    now = timezone.now()
    created = []
    for copy in people:
        person = Person(
            name=copy.name,
            club=copy.club,
            publish_consent=copy.publish_consent,
            consent_at=now if copy.publish_consent else None,
        )
        person.full_clean(exclude=["name_key", "club_key"])
        person.save()
        created.append(person)
    return created


def person_copies(*, ids: set[int]) -> list[tuple[int, PersonCopy]]:
    """What another installation needs of these people (by id, in id order)."""
    rows = Person.objects.filter(pk__in=ids).order_by("pk")
    return [(p.pk, PersonCopy(p.name, p.club, p.publish_consent)) for p in rows]


def persons_present(*, ids: set[int]) -> set[int]:
    """Which of ``ids`` are people of this database."""
    return set(Person.objects.filter(pk__in=ids).values_list("pk", flat=True))
