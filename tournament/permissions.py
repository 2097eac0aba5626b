"""Who may do what in a tournament.

Roles are per tournament: organiser, judge. Staff users (Django admin) act
as organisers everywhere. Tables authenticate with their token, not here.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission

from tournament.errors import PermissionDenied
from tournament.models import Tournament, TournamentRole


def _roles(user: Any, tournament: Tournament) -> set[str]:
    if not getattr(user, "is_authenticated", False):
        return set()
    cache = getattr(user, "_tournament_roles_cache", None)
    if cache is None:
        cache = {}
        user._tournament_roles_cache = cache
    if tournament.pk not in cache:
        cache[tournament.pk] = set(
            TournamentRole.objects.filter(tournament=tournament, user=user).values_list(
                "role", flat=True
            )
        )
    return cache[tournament.pk]


def is_organiser(user: Any, tournament: Tournament) -> bool:
    if getattr(user, "is_staff", False) and getattr(user, "is_active", False):
        return True
    return TournamentRole.Role.ORGANISER in _roles(user, tournament)


def is_judge(user: Any, tournament: Tournament) -> bool:
    """Judges of this tournament; organisers may do everything a judge may."""
    return is_organiser(user, tournament) or TournamentRole.Role.JUDGE in _roles(user, tournament)


def require_organiser(user: Any, tournament: Tournament) -> None:
    if not is_organiser(user, tournament):
        raise PermissionDenied(
            "Only an organiser of this tournament may do this.",
            "Kun en arrangør af denne turnering må gøre dette.",
        )


def require_judge(user: Any, tournament: Tournament) -> None:
    if not is_judge(user, tournament):
        raise PermissionDenied(
            "Only a judge or organiser of this tournament may do this.",
            "Kun en dommer eller arrangør af denne turnering må gøre dette.",
        )


class IsOrganiserOrReadOnly(BasePermission):
    """Object-level: reads for everyone, writes for the tournament's organisers.

    Views set ``get_tournament()``; the check is made on every unsafe request.
    """

    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        tournament = view.get_tournament()
        return is_organiser(request.user, tournament)
