"""Reads of events, their roles and their pairs: nothing of rounds or games.

The pages and APIs of a competition in play read through
``competition.selectors``; these are the reads the apps below ``games``
(sign-up, ratings) and the landing pages need.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from core.users import Actor, signed_in
from tournament.models import Pair, Tournament, TournamentRole

__all__ = ["UserEvents", "active_pairs", "events_for_user", "home_for_user"]


def active_pairs(*, tournament: Tournament) -> list[Pair]:
    """Pairs still in the event (not dropped), players loaded, by start number."""
    return list(
        Pair.objects.filter(tournament=tournament)
        .exclude(status=Pair.Status.DROPPED)
        .select_related("player_1", "player_2")
        .order_by("start_number")
    )


@dataclass(frozen=True)
class UserEvents:
    """The events a user has a role in, newest first; organising wins over judging."""

    organised: list[Tournament]
    judged: list[Tournament]

    def __bool__(self) -> bool:
        return bool(self.organised or self.judged)


def events_for_user(*, user: Actor) -> UserEvents:
    member = signed_in(user)
    if member is None:
        return UserEvents([], [])
    if member.is_staff and member.is_active:  # staff act as organisers everywhere
        return UserEvents(list(Tournament.objects.all()), [])
    roles = TournamentRole.objects.filter(user=member).select_related("tournament")
    organised = {
        r.tournament_id: r.tournament for r in roles if r.role == TournamentRole.Role.ORGANISER
    }
    judged = {
        r.tournament_id: r.tournament
        for r in roles
        if r.role == TournamentRole.Role.JUDGE and r.tournament_id not in organised
    }

    def newest_first(events: dict[int, Tournament]) -> list[Tournament]:
        return sorted(events.values(), key=lambda t: (-t.date.toordinal(), t.name))

    return UserEvents(newest_first(organised), newest_first(judged))


def home_for_user(*, user: Actor, today: datetime.date) -> tuple[str, Tournament] | None:
    """Where a user lands after login: ("organiser"|"judge", event), or None to choose.

    The one event they have a role in; of several, the one held today; if
    that does not decide it, they pick from their list of events.
    """
    events = events_for_user(user=user)
    candidates = [("organiser", t) for t in events.organised]
    candidates += [("judge", t) for t in events.judged]
    if len(candidates) == 1:
        return candidates[0]
    today_only = [c for c in candidates if c[1].date == today]
    return today_only[0] if len(today_only) == 1 else None
