"""Who may organise or judge an event: granting and revoking roles."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from core.errors import Conflict, NotFound
from core.users import Actor, User
from tournament.models import (
    Tournament,
    TournamentRole,
)
from tournament.permissions import require_organiser
from tournament.services.audit import audit_record


@transaction.atomic
def tournament_role_grant(
    *, tournament: Tournament, actor: Actor, user: User, role: TournamentRole.Role
) -> TournamentRole:
    require_organiser(actor, tournament)
    granted, created = TournamentRole.objects.get_or_create(
        tournament=tournament, user=user, role=role
    )
    if created:
        audit_record(
            tournament=tournament,
            actor=actor,
            action="role_grant",
            target=user,
            data={"role": role},
        )
    return granted


@transaction.atomic
def tournament_role_grant_invited(
    *, tournament: Tournament, user: User, role: TournamentRole.Role, invited_by: User | None
) -> TournamentRole:
    """Give ``user`` the role an organiser's invitation offered them.

    The invitation is the authority (its caller checked it is live and
    claimed it); the audit trail names the organiser who made it.
    """
    granted, created = TournamentRole.objects.get_or_create(
        tournament=tournament, user=user, role=role
    )
    if created:
        audit_record(
            tournament=tournament,
            actor=invited_by,
            action="role_grant_invited",
            target=user,
            data={"role": role},
        )
    return granted


@transaction.atomic
def tournament_role_revoke(
    *, tournament: Tournament, actor: Actor, user: User, role: TournamentRole.Role
) -> None:
    require_organiser(actor, tournament)
    roles = TournamentRole.objects.select_for_update().filter(tournament=tournament, role=role)
    entry = roles.filter(user=user).first()
    if entry is None:
        raise NotFound("role_not_found", _("This user does not have that role."))
    if role == TournamentRole.Role.ORGANISER and roles.count() == 1:
        raise Conflict("last_organiser", _("A tournament must keep at least one organiser."))
    entry.delete()
    audit_record(
        tournament=tournament, actor=actor, action="role_revoke", target=user, data={"role": role}
    )
