"""Players as people: replacing the copies of an anonymised person's name."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from django.db import transaction

from core.users import Actor
from people.models import Person
from tournament.models import AuditEntry, Player, Tournament
from tournament.services.audit import audit_record, tournament_data_changed


@transaction.atomic
def players_anonymise(*, persons: Sequence[tuple[Person, str]], actor: Actor) -> list[Tournament]:
    """The players of these (already anonymised) people take the new name,
    in every tournament; the old name is also replaced in those tournaments'
    audit trail. ``persons``: each person with the name it had.

    The caller has checked the actor may do this (an organiser of a season
    the person played in, acting on the person's request).
    """
    touched: dict[int, Tournament] = {}
    for person, old_name in persons:
        players = Player.objects.select_related("tournament").filter(person=person)
        for player in players:
            touched[player.tournament_id] = player.tournament
        players.update(name=person.name, club="")
        if not old_name:
            continue
        # Whole words only: "Bo" must not turn "Bornholm" into "Anonym #7rnholm".
        name = re.compile(rf"(?<!\w){re.escape(old_name)}(?!\w)")
        entries = AuditEntry.objects.select_for_update().filter(tournament__in=list(touched))
        for entry in entries:
            text = json.dumps(entry.data, ensure_ascii=False)
            if not (name.search(entry.target) or name.search(text)):
                continue
            entry.target = name.sub(person.name, entry.target)
            entry.data = json.loads(name.sub(person.name, text))
            entry.save(update_fields=["target", "data"])
    for tournament in touched.values():
        audit_record(
            tournament=tournament,
            actor=actor,
            action="players_anonymise",
            target=", ".join(p.name for p, _old in persons),
        )
        tournament_data_changed(tournament=tournament)
    return list(touched.values())
