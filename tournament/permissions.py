"""Who may do what in a tournament.

Roles are per tournament: organiser, judge. Staff users (Django admin) act
as organisers everywhere. Tables authenticate with their token, not here.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _

from core.errors import NotFound, PermissionDenied
from core.users import Actor, signed_in
from tournament.models import Round, Tournament, TournamentRole

_ROLES_MEMO = "_tournament_roles_cache"


def _roles(user: Actor | None, tournament: Tournament) -> set[str]:
    member = signed_in(user)
    if member is None:
        return set()
    # Kept on the user object (through request.user's lazy wrapper), so one
    # request asks the database once per tournament.
    cache: dict[int, set[str]] | None = getattr(member, _ROLES_MEMO, None)
    if cache is None:
        cache = {}
        setattr(member, _ROLES_MEMO, cache)
    if tournament.pk not in cache:
        cache[tournament.pk] = set(
            TournamentRole.objects.filter(tournament=tournament, user=member).values_list(
                "role", flat=True
            )
        )
    return cache[tournament.pk]


def is_organiser(user: Actor | None, tournament: Tournament) -> bool:
    if getattr(user, "is_staff", False) and getattr(user, "is_active", False):
        return True
    return TournamentRole.Role.ORGANISER in _roles(user, tournament)


def is_judge(user: Actor | None, tournament: Tournament) -> bool:
    """Judges of this tournament; organisers may do everything a judge may."""
    return is_organiser(user, tournament) or TournamentRole.Role.JUDGE in _roles(user, tournament)


def require_organiser(user: Actor | None, tournament: Tournament) -> None:
    if not is_organiser(user, tournament):
        raise PermissionDenied(
            _("Only an organiser of this tournament may do this."),
        )


def require_judge(user: Actor | None, tournament: Tournament) -> None:
    if not is_judge(user, tournament):
        raise PermissionDenied(
            _("Only a judge or organiser of this tournament may do this."),
        )


# --- who may see what: the one place that decides it -----------------------------
#
# An unpublished tournament and a draft round are seen only by the event's
# organisers and judges (and staff): every read of a round, a game, its
# record, live page, clock or hall goes through these. A table's own token
# opens its own game (games.services.tokens) and is not decided here.

PUBLIC_ROUND_STATUSES = (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS, Round.Status.CLOSED)


def tournament_visible(user: Actor, tournament: Tournament) -> bool:
    """Everyone sees a published tournament; its organisers and judges see it always."""
    return tournament.published or is_judge(user, tournament)


def drafts_visible(user: Actor, tournament: Tournament) -> bool:
    """Whether ``user`` sees the tournament's draft rounds (its organisers and judges)."""
    return is_judge(user, tournament)


def round_visible(user: Actor, round_: Round) -> bool:
    tournament = round_.tournament
    if round_.status not in PUBLIC_ROUND_STATUSES:
        return drafts_visible(user, tournament)
    return tournament_visible(user, tournament)


def require_tournament_visible(user: Actor, tournament: Tournament) -> None:
    """A 404 (not a 403: it does not say the tournament exists) unless ``user`` sees it."""
    if not tournament_visible(user, tournament):
        raise NotFound(
            "tournament_not_public",
            _("This tournament is not public."),
        )


def require_round_visible(user: Actor, round_: Round) -> None:
    """A 404 unless ``user`` sees the round (and with it its games)."""
    require_tournament_visible(user, round_.tournament)
    if not round_visible(user, round_):
        raise NotFound(
            "round_not_published",
            _("The pairings of this round have not been published yet."),
        )


def visible_tournament_or_404(user: Actor, slug: str) -> Tournament:
    """The event of ``slug`` if ``user`` may see it (published, or its staff); a
    page's 404 otherwise, which does not say whether it exists."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament_visible(user, tournament):
        raise Http404
    return tournament


def visible_tournaments(user: Actor) -> QuerySet[Tournament]:
    """The tournaments ``user`` sees (``tournament_visible`` as a query)."""
    tournaments = Tournament.objects.all()
    if getattr(user, "is_staff", False) and getattr(user, "is_active", False):
        return tournaments
    if getattr(user, "is_authenticated", False):
        return tournaments.filter(Q(published=True) | Q(roles__user=user)).distinct()
    return tournaments.filter(published=True)


def public_round_q(prefix: str = "") -> Q:
    """The rounds everyone sees (``round_visible`` for an anonymous visitor) as a filter.

    ``prefix`` names the round from another model: ``"round__"`` for games,
    ``"game__round__"`` for a game's rating history. Every public history
    (player pages, rating curves, statistics) reads its games through this.
    """
    return Q(
        **{
            f"{prefix}status__in": PUBLIC_ROUND_STATUSES,
            f"{prefix}tournament__published": True,
        }
    )


def visible_rounds(user: Actor, rounds: QuerySet[Round]) -> QuerySet[Round]:
    """``rounds`` narrowed to those ``user`` sees (``round_visible`` as a query)."""
    if getattr(user, "is_staff", False) and getattr(user, "is_active", False):
        return rounds
    public = public_round_q()
    if not getattr(user, "is_authenticated", False):
        return rounds.filter(public)
    staffed = Q(tournament__roles__user=user)
    return rounds.filter(public | staffed).distinct()
