"""Reads about consent to publish: whom a sign-up's email speaks for, who may record it.

A sign-up's confirmation link proves one thing: its opener reads the
sign-up's email address. That address may speak for a person the sign-up
created or who only ever entered through sign-ups from the same address.
A person known from elsewhere (an event an organiser registered by hand,
a sign-up from another address) is not the address's to publish: their
consent comes from the organiser, who met them, or from their own address
(docs/decisions.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from core.users import Actor, signed_in
from people.models import ConsentRecord, Person
from signup.models import SignUp
from tournament.models import Pair, Player, Tournament, TournamentRole


def signup_persons(*, signup: SignUp) -> list[Person]:
    """The people named on the sign-up (one or two), as they are now."""
    ids = [pk for pk in (signup.person_1_id, signup.person_2_id) if pk is not None]
    return list(Person.objects.filter(pk__in=ids).order_by("pk"))


def _same_address(a: str, b: str) -> bool:
    return bool(a) and a.strip().casefold() == b.strip().casefold()


def _vouched(person: Person, signup: SignUp) -> bool:
    if person.merged_into_id is not None or person.anonymised_at is not None:
        return False
    others = SignUp.objects.filter(Q(person_1=person) | Q(person_2=person)).exclude(pk=signup.pk)
    if any(not _same_address(other.email, signup.email) for other in others):
        return False
    players = Player.objects.filter(person=person)
    pairs = Pair.objects.filter(Q(player_1__in=players) | Q(player_2__in=players)).select_related(
        "signup"
    )
    for pair in pairs:
        entry = getattr(pair, "signup", None)
        if entry is None or not _same_address(entry.email, signup.email):
            return False
    return True


@dataclass(frozen=True)
class ConsentCoverage:
    """The people a sign-up's confirmation link publishes, and those it cannot."""

    covered: list[Person]
    not_covered: list[Person]


def consent_coverage(*, signup: SignUp) -> ConsentCoverage:
    covered: list[Person] = []
    not_covered: list[Person] = []
    for person in signup_persons(signup=signup):
        (covered if _vouched(person, signup) else not_covered).append(person)
    return ConsentCoverage(covered, not_covered)


def consent_history(*, person: Person) -> QuerySet[ConsentRecord]:
    """The person's consent records, newest first."""
    return person.consent_records.select_related("actor").order_by("-created_at", "-pk")


def consent_events_organised(*, actor: Actor | None, person: Person) -> list[Tournament]:
    """The events ``actor`` organises in which ``person`` plays or is signed up.

    Staff (active) act as organisers everywhere: every such event, and a
    person of no event too (the returned list is then empty, see
    ``may_record_consent``).
    """
    member = signed_in(actor)
    if member is None:
        return []
    events = Tournament.objects.filter(
        Q(players__person=person) | Q(signups__person_1=person) | Q(signups__person_2=person)
    )
    if not (member.is_staff and member.is_active):
        events = events.filter(roles__user=member, roles__role=TournamentRole.Role.ORGANISER)
    return list(events.distinct().order_by("-date", "name"))


def may_record_consent(*, actor: Actor | None, person: Person) -> bool:
    """Staff, or an organiser of an event the person plays in or signed up for."""
    member = signed_in(actor)
    if member is None or not member.is_active:
        return False
    if member.is_staff:
        return True
    return bool(consent_events_organised(actor=member, person=person))
