"""Reads of the signup app: is sign-up open, how many places, the waitlist."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import Q, QuerySet
from django.utils import timezone

from signup.models import SignUp
from tournament.models import Pair, Tournament
from tournament.selectors_events import active_pairs

# Sign-ups that are still "in": they hold a place, or queue for one.
ACTIVE = (SignUp.Status.PENDING, SignUp.Status.CONFIRMED, SignUp.Status.WAITLISTED)
# The organiser's list: what needs a decision first, what is over last.
_ORDER = {
    SignUp.Status.PENDING: 0,
    SignUp.Status.CONFIRMED: 1,
    SignUp.Status.WAITLISTED: 2,
    SignUp.Status.WITHDRAWN: 3,
    SignUp.Status.REJECTED: 4,
}


@dataclass(frozen=True)
class SignUpState:
    """What the public sign-up page says. ``capacity`` None: no limit."""

    enabled: bool
    open: bool
    started: bool
    closes_at: datetime.datetime | None
    capacity: int | None
    taken: int
    waitlist: int
    approval: bool
    pairs: list[Pair] = field(default_factory=list)

    @property
    def free(self) -> int | None:
        return None if self.capacity is None else max(self.capacity - self.taken, 0)

    @property
    def full(self) -> bool:
        return self.free == 0


def places_taken(*, tournament: Tournament, pairs: list[Pair] | None = None) -> int:
    """Pairs in the event (however they entered) plus sign-ups awaiting approval."""
    entered = len(pairs if pairs is not None else active_pairs(tournament=tournament))
    pending = SignUp.objects.filter(tournament=tournament, status=SignUp.Status.PENDING).count()
    return entered + pending


def signup_state(*, tournament: Tournament, now: datetime.datetime | None = None) -> SignUpState:
    now = now or timezone.now()
    pairs = active_pairs(tournament=tournament)
    started = tournament.rounds.exists()
    closes_at = tournament.signup_closes_at
    enabled = closes_at is not None
    return SignUpState(
        enabled=enabled,
        open=enabled and not started and now < closes_at,  # type: ignore[operator]
        started=started,
        closes_at=closes_at,
        capacity=tournament.signup_capacity,
        taken=places_taken(tournament=tournament, pairs=pairs),
        waitlist=waitlist(tournament=tournament).count(),
        approval=tournament.signup_approval,
        pairs=pairs,
    )


def waitlist(*, tournament: Tournament) -> QuerySet[SignUp]:
    """Waitlisted sign-ups, first come first."""
    return SignUp.objects.filter(tournament=tournament, status=SignUp.Status.WAITLISTED).order_by(
        "created_at", "pk"
    )


def waitlist_position(*, signup: SignUp) -> int | None:
    """1 for the next to move up; None when not on the waitlist."""
    if signup.status != SignUp.Status.WAITLISTED:
        return None
    ahead = waitlist(tournament=signup.tournament).filter(
        Q(created_at__lt=signup.created_at) | Q(created_at=signup.created_at, pk__lt=signup.pk)
    )
    return ahead.count() + 1


def signups_for_organiser(*, tournament: Tournament) -> list[SignUp]:
    """Every sign-up (emails included: organisers only), decisions first,
    waitlist in its order, with ``position`` and ``last_email`` set."""
    signups = list(
        SignUp.objects.filter(tournament=tournament)
        .select_related("pair", "person_1", "person_2")
        .prefetch_related("emails")
        .order_by("created_at", "pk")
    )
    position = 0
    for signup in signups:
        if signup.status == SignUp.Status.WAITLISTED:
            position += 1
            signup.position = position  # type: ignore[attr-defined]
        else:
            signup.position = None  # type: ignore[attr-defined]
        emails = list(signup.emails.all())
        signup.last_email = emails[-1] if emails else None  # type: ignore[attr-defined]
    signups.sort(key=lambda s: _ORDER[SignUp.Status(s.status)])
    return signups
