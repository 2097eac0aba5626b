"""Players as people: replacing the copies of an anonymised person's name."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q

from core.users import Actor
from people.models import Person
from tournament.models import AuditEntry, Pair, Player, Tournament
from tournament.services.audit import audit_record, tournament_data_changed
from tournament.signals import players_anonymised


def _whole(text: str) -> re.Pattern[str]:
    # Whole words only: "Bo" must not turn "Bornholm" into "Anonym #7rnholm".
    return re.compile(rf"(?<!\w){re.escape(text)}(?!\w)", re.IGNORECASE)


def name_in(text: str, old_name: str) -> bool:
    """Whether ``text`` (a pair's name) carries any word of ``old_name``:
    "Kirsten & Jens" carries Kirsten Pedersen's first name."""
    return any(_whole(word).search(text) for word in old_name.split() if len(word) > 1)


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement taken as it is (a name may hold a backslash)."""
    return lambda _match: text


def _substitute(value: Any, replace: list[tuple[re.Pattern[str], str]]) -> Any:
    """``value`` (text or JSON data) with every pattern replaced, keys and values."""
    if isinstance(value, str):
        for pattern, new in replace:
            value = pattern.sub(_literal(new), value)
        return value
    if isinstance(value, list):
        return [_substitute(item, replace) for item in value]
    if isinstance(value, dict):
        return {_substitute(k, replace): _substitute(v, replace) for k, v in value.items()}
    return value


@transaction.atomic
def players_anonymise(*, persons: Sequence[tuple[Person, str]], actor: Actor) -> list[Tournament]:
    """The players of these (already anonymised) people take the new name,
    in every tournament; a pair name made of the old name ("Kirsten & Jens")
    is dropped, so the pair shows its players' names; the old name and pair
    name are also replaced in those tournaments' audit trail. ``persons``:
    each person with the name it had.

    The caller has checked the actor may do this
    (``tournament.person_permissions``). Announces ``players_anonymised``
    so stored documents of these events (printed PDFs) are dropped.
    """
    touched: dict[int, Tournament] = {}
    replace: list[tuple[re.Pattern[str], str]] = []
    for person, old_name in persons:
        players = Player.objects.select_related("tournament").filter(person=person)
        for player in players:
            touched[player.tournament_id] = player.tournament
        players.update(name=person.name, club="")
        if not old_name:
            continue
        for pair in Pair.objects.select_related("player_1", "player_2").filter(
            Q(player_1__person=person) | Q(player_2__person=person)
        ):
            if pair.name and name_in(pair.name, old_name):
                replace.append((_whole(pair.name), pair.player_names))
                pair.name = ""
                pair.save(update_fields=["name"])
        replace.append((_whole(old_name), person.name))
    if replace:
        entries = AuditEntry.objects.select_for_update().filter(tournament__in=list(touched))
        for entry in entries:
            target, data = _substitute(entry.target, replace), _substitute(entry.data, replace)
            if target != entry.target or data != entry.data:
                entry.target, entry.data = target[:200], data
                entry.save(update_fields=["target", "data"])
    for tournament in touched.values():
        audit_record(
            tournament=tournament,
            actor=actor,
            action="players_anonymise",
            target=", ".join(p.name for p, _old in persons),
        )
        tournament_data_changed(tournament=tournament)
    players_anonymised.send(sender=Player, tournaments=list(touched.values()))
    return list(touched.values())
