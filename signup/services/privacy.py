"""Personal data of sign-ups: contact emails are deleted after the event,
and a person's names in sign-ups are replaced when they are anonymised.

docs/signup.md ("Personal data") says what is kept, for how long, and why.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from people.models import Person
from signup.models import SignUp
from tournament.services.players import name_in


def signup_contacts_purge(*, today: datetime.date | None = None) -> int:
    """Delete the contact email of every sign-up whose tournament was more
    than ``SIGNUP_EMAIL_RETENTION_DAYS`` ago. Returns how many were deleted."""
    today = today or timezone.localdate()
    cutoff = today - datetime.timedelta(days=settings.SIGNUP_EMAIL_RETENTION_DAYS)
    return (
        SignUp.objects.filter(tournament__date__lt=cutoff)
        .exclude(email="")
        .update(email="", anonymised_at=timezone.now())
    )


@transaction.atomic
def signups_anonymise(*, persons: Sequence[tuple[Person, str]]) -> int:
    """Sign-ups naming these (now anonymised) people take their new name, lose
    a pair name made of the old one ("Kirsten & Jens") and the contact email.
    ``persons``: each person with the name it had."""
    changed = 0
    now = timezone.now()
    for person, old_name in persons:
        for signup in SignUp.objects.select_for_update().filter(
            Q(person_1=person) | Q(person_2=person)
        ):
            if signup.person_1_id == person.pk:
                signup.player_1 = person.name
            if signup.person_2_id == person.pk:
                signup.player_2 = person.name
            if old_name and name_in(signup.pair_name, old_name):
                signup.pair_name = ""
            signup.email, signup.anonymised_at = "", now
            signup.save(
                update_fields=["player_1", "player_2", "pair_name", "email", "anonymised_at"]
            )
            changed += 1
    return changed
