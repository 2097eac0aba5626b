"""An event handed between the website and a venue laptop, and automatic backups.

``HandOver`` lives on the installation that sent the event (the website):
the event is "at the venue" until the return is imported or the organiser
takes it back. ``VenueCopy`` lives on the installation that received it (the
laptop): what it needs to send the event back (docs/operations.md, "From the
website to the venue and back"). ``AutoBackup`` is the state of the
automatic backups of one event on this installation.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament


class HandOver(models.Model):
    class State(models.TextChoices):
        AT_VENUE = "at_venue", _("At the venue")
        RETURNED = "returned", _("Returned from the venue")
        TAKEN_BACK = "taken_back", _("Taken back")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="hand_overs")
    # Names the hand-over in both files; the secret signs the return.
    key = models.CharField(max_length=32, unique=True)
    secret = models.CharField(max_length=64)
    state = models.CharField(max_length=12, choices=State.choices, default=State.AT_VENUE)
    # The event's content when it left: one digest per section (conflict check).
    base_digests = models.JSONField(default=dict)
    base_version = models.PositiveBigIntegerField(default=0)
    # Audit entries after this one were written on the website meanwhile: kept on return.
    base_audit_id = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament"],
                condition=models.Q(state="at_venue"),
                name="handover_one_at_venue",
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.state} {self.key}"


class VenueCopy(models.Model):
    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="venue_copy"
    )
    key = models.CharField(max_length=32, unique=True)
    secret = models.CharField(max_length=64)
    origin_tournament_id = models.PositiveBigIntegerField()
    origin_slug = models.CharField(max_length=80)
    # This installation's ids -> the website's, as text keys (JSON objects).
    person_ids = models.JSONField(default=dict)
    pair_ids = models.JSONField(default=dict)
    received_at = models.DateTimeField(auto_now_add=True)
    returned_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.tournament_id} from {self.origin_slug}"


class AutoBackup(models.Model):
    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="auto_backup"
    )
    # What the last file holds (row counts and last ids): an unchanged event is not written again.
    fingerprint = models.CharField(max_length=64, blank=True)
    last_at = models.DateTimeField(null=True, blank=True)
    last_file = models.CharField(max_length=500, blank=True)
    error = models.CharField(max_length=500, blank=True)
    error_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.last_at}"


class StreamTable(models.Model):
    """The table an event's stream shows (the overlay of a streaming tool's browser source).

    One per event; the organiser sends a table to the stream and the overlay
    follows without being reloaded. ``game`` empty: the stream shows no table.
    """

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="stream_table"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    chosen_at = models.DateTimeField(auto_now=True)
    chosen_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"{self.tournament} — {self.game or '-'}"
