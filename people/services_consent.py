"""Writes of a person's consent to publish: give, withdraw, and the flag they derive.

Every change appends a ``ConsentRecord`` and recomputes the effective flag
(``Person.publish_consent`` and ``consent_at``) from the whole history, so
the public pages, which read only the flag, follow the history exactly.
The rule, in the order the records were made:

- a grant (``given``) holds for its ``source`` until that source ends or the
  consent is withdrawn;
- a withdrawal through ``Via.SOURCE_ENDED`` ends only the grant of its
  ``source`` (a sign-up withdrawn takes back what came only from it);
- any other withdrawal (the person, an organiser) ends every grant.

The flag is on while a grant holds, never for a merged-away or anonymised
person. Callers check who may act (this app knows no roles or tournaments).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.users import Actor, signed_in
from people.errors import PersonRefused
from people.models import ConsentRecord, Person


def consent_effective(
    records: Iterable[ConsentRecord],
) -> tuple[bool, datetime.datetime | None]:
    """(consenting, since when) from records in the order they were made."""
    holding: dict[str, datetime.datetime] = {}
    for record in records:
        if record.given:
            holding.setdefault(record.source, record.created_at)
        elif record.via == ConsentRecord.Via.SOURCE_ENDED:
            holding.pop(record.source, None)
        else:
            holding.clear()
    if not holding:
        return False, None
    return True, min(holding.values())


def person_consent_refresh(*, person: Person) -> None:
    """Set ``person``'s effective flag from their history (after a merge is undone)."""
    _refresh(person)


def _refresh(person: Person) -> None:
    consenting, since = consent_effective(person.consent_records.order_by("created_at", "pk"))
    if person.merged_into_id is not None or person.anonymised_at is not None:
        consenting, since = False, None
    if (person.publish_consent, person.consent_at) != (consenting, since):
        person.publish_consent, person.consent_at = consenting, since
        # A save, not an update: the rating pages' cache key follows Person saves.
        person.save(update_fields=["publish_consent", "consent_at"])


def _locked(persons: Iterable[Person]) -> list[Person]:
    ids = sorted({p.pk for p in persons})
    return list(Person.objects.select_for_update().filter(pk__in=ids).order_by("pk"))


@transaction.atomic
def person_consent_give(
    *,
    persons: Iterable[Person],
    via: str,
    source: str,
    actor: Actor | None = None,
    reason: str = "",
) -> list[Person]:
    """Record that each of ``persons`` agrees to be published; returns them refreshed.

    Refused (``PersonRefused``) for a merged-away or anonymised person: the
    consent belongs on the person they were merged into, or nowhere.
    """
    locked = _locked(persons)
    for person in locked:
        if person.merged_into_id is not None or person.anonymised_at is not None:
            raise PersonRefused(
                "person_consent_gone",
                _("This person has been merged into another or anonymised."),
            )
    now = timezone.now()
    for person in locked:
        ConsentRecord.objects.create(
            person=person,
            given=True,
            via=via,
            source=source[:120],
            reason=" ".join(reason.split())[:300],
            actor=signed_in(actor),
            created_at=now,
        )
        _refresh(person)
    return locked


@transaction.atomic
def person_consent_withdraw(
    *,
    persons: Iterable[Person],
    via: str,
    source: str = "",
    actor: Actor | None = None,
    reason: str = "",
) -> list[Person]:
    """Record a withdrawal for each of ``persons``; returns them refreshed.

    With ``Via.SOURCE_ENDED`` only the grant of ``source`` ends, and nothing
    is recorded for a person who had no grant from it (the history stays
    about consent, not about every sign-up withdrawn).
    """
    locked = _locked(persons)
    now = timezone.now()
    for person in locked:
        if via == ConsentRecord.Via.SOURCE_ENDED:
            records = list(person.consent_records.order_by("created_at", "pk"))
            if not _holds(records, source):
                continue
        ConsentRecord.objects.create(
            person=person,
            given=False,
            via=via,
            source=source[:120],
            reason=" ".join(reason.split())[:300],
            actor=signed_in(actor),
            created_at=now,
        )
        _refresh(person)
    return locked


def _holds(records: list[ConsentRecord], source: str) -> bool:
    """Whether the grant of ``source`` still holds after ``records``."""
    holds = False
    for record in records:
        if record.given and record.source == source:
            holds = True
        elif not record.given and (
            record.via != ConsentRecord.Via.SOURCE_ENDED or record.source == source
        ):
            holds = False
    return holds


def person_consent_forget_reasons(*, person: Person) -> None:
    """Blank the free-text reasons of ``person``'s history (an anonymisation keeps no notes)."""
    ConsentRecord.objects.filter(person=person).update(reason="")
