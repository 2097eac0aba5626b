"""Accounts' reads: is setup open, an invitation by its link, an event's invitations."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import Invitation
from accounts.tokens import secret_hash
from tournament.models import Tournament


def setup_open() -> bool:
    """The first-run setup exists only while the server has no account at all."""
    return not get_user_model().objects.exists()


def invitation_for_token(*, token: str) -> Invitation | None:
    return (
        Invitation.objects.select_related("tournament", "created_by")
        .filter(token_hash=secret_hash(token))
        .first()
    )


def invitations_pending(*, tournament: Tournament) -> QuerySet[Invitation]:
    """The event's invitations still waiting to be used."""
    return Invitation.objects.filter(
        tournament=tournament,
        accepted_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    ).select_related("created_by")


def accounts_for_staff() -> QuerySet:  # type: ignore[type-arg]
    """Every account, for the staff's list (active first, then by name)."""
    return get_user_model().objects.order_by("-is_active", "username")
