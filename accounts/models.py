"""One-time secrets that make accounts: the first-run setup code and invitations.

Both are stored as the SHA-256 of the secret only: the code or link is shown
(or emailed) once and never kept, so a copy of the database, a backup or a
log line of a query opens nothing. Each expires, is used at most once (a
conditional update claims it) and an invitation can be revoked.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament, TournamentRole


class SetupCode(models.Model):
    """The one-time code that lets the first organiser be created on a server with no account."""

    code_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"setup code {self.code_hash[:6]}"


class Invitation(models.Model):
    """A one-time link that gives its holder a role in one event."""

    class State(models.TextChoices):
        PENDING = "pending", _("Waiting")
        ACCEPTED = "accepted", _("Accepted")
        REVOKED = "revoked", _("Revoked")
        EXPIRED = "expired", _("Expired")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=20, choices=TournamentRole.Role.choices)
    token_hash = models.CharField(max_length=64, unique=True)
    email = models.EmailField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="accepted_invitations",
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_role_display()} — {self.tournament}"

    @property
    def state(self) -> Invitation.State:
        if self.accepted_at is not None:
            return self.State.ACCEPTED
        if self.revoked_at is not None:
            return self.State.REVOKED
        if self.expires_at <= timezone.now():
            return self.State.EXPIRED
        return self.State.PENDING
