"""Who may be named on a public page that is not an event's own: the one consent check.

``Person.publish_consent`` is the effective consent (however it was given);
a person merged away or anonymised is never public. Pages that gather a
person across events (rating list, player pages, season pages, statistics
over several events) name only public people; anyone else is "a player".
An event's own pages (its pairings, live views, replays, stream overlay)
show its pairs as the event published them and do not ask here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from django.db.models import Q
from django.utils.translation import gettext

from people.models import Person

# Who may appear on public pages: consented, neither merged away nor anonymised.
PUBLIC_PEOPLE = {
    "publish_consent": True,
    "merged_into__isnull": True,
    "anonymised_at__isnull": True,
}


def public_people_q(prefix: str = "") -> Q:
    """``PUBLIC_PEOPLE`` as a filter on a relation (``prefix`` e.g. ``"person__"``)."""
    return Q(**{f"{prefix}{key}": value for key, value in PUBLIC_PEOPLE.items()})


def person_is_public(person: Person | None) -> bool:
    return bool(
        person is not None
        and person.publish_consent
        and person.merged_into_id is None
        and person.anonymised_at is None
    )


def public_person_ids(*, person_ids: Iterable[int | None]) -> frozenset[int]:
    """Those of ``person_ids`` that may be named publicly (one query)."""
    ids = {pk for pk in person_ids if pk}
    if not ids:
        return frozenset()
    return frozenset(
        Person.objects.filter(public_people_q(), pk__in=ids).values_list("pk", flat=True)
    )


class _Player(Protocol):
    name: str
    person_id: int | None


def a_player() -> str:
    return gettext("a player")


@dataclass(frozen=True)
class PublicNames:
    """How players and pairs are written where only public people may be named.

    A player linked to a public person keeps their name; anyone else (no
    consent, or linked to nobody) is "a player". A pair keeps its name only
    when all its players are public (a pair's name may well be its players').
    """

    ids: frozenset[int]

    def is_public(self, player: _Player | None) -> bool:
        return player is not None and player.person_id in self.ids

    def player(self, player: _Player) -> str:
        return player.name if self.is_public(player) else a_player()

    def pair_is_public(self, pair: Any) -> bool:
        return all(self.is_public(player) for player in pair.players)

    def players(self, pair: Any) -> tuple[str, ...]:
        return tuple(self.player(player) for player in pair.players)

    def pair(self, pair: Any) -> str:
        """The pair as its event's pages write it, or its players with the others masked."""
        if self.pair_is_public(pair):
            return str(pair.display_name)
        return " & ".join(self.players(pair))


def public_names(*, pairs: Iterable[Any]) -> PublicNames:
    """The ``PublicNames`` for the players of ``pairs`` (one query)."""
    return PublicNames(
        public_person_ids(person_ids=(pl.person_id for pair in pairs for pl in pair.players))
    )
