"""The per-table move log: one row per entry, chained by hashes.

The log is the truth: a game's state is the engine's replay of its active
entries in sequence order. A take-back keeps the row (audit trail) and marks
it withdrawn, so uniqueness of ``(game, seq)`` only holds for active entries
and a withdrawn sequence number can be used again.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.game import SEAT_CHOICES

# The highest entry number a request may name: far beyond any game (a long
# game has a few hundred entries), low enough to be a plain number everywhere.
MAX_ENTRY_NUMBER = 100_000


class MoveEntry(models.Model):
    class Source(models.TextChoices):
        TABLE = "table", _("Logged at the table")
        IMPORT = "import", _("Imported game record")
        DEMO = "demo", _("Demo data")
        JUDGE = "judge", _("Judge ruling")

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="move_entries")
    seq = models.PositiveIntegerField(_("entry number"))
    seat = models.CharField(max_length=1, choices=SEAT_CHOICES)
    # Canonical entry as in a NOTATION.md game record, e.g. "Y 5: Y3+5".
    text = models.CharField(max_length=120)
    # Made by the device that logged the entry; a retry carries the same id.
    client_id = models.CharField(max_length=64)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    events = models.JSONField(default=list, blank=True)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.TABLE)
    created_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["game", "seq", "created_at"]
        verbose_name = _("move log entry")
        verbose_name_plural = _("move log entries")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seq"],
                condition=models.Q(withdrawn_at__isnull=True),
                name="move_entry_one_active_per_seq",
            ),
            models.UniqueConstraint(fields=["game", "client_id"], name="move_entry_client_once"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="move_entry_seq_positive"),
        ]
        indexes = [models.Index(fields=["game", "withdrawn_at", "seq"], name="move_entry_active")]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.seq} {self.text}"

    @property
    def active(self) -> bool:
        return self.withdrawn_at is None


class ResultConfirmation(models.Model):
    """One player of a pair confirmed the engine's result on the table device."""

    class Side(models.TextChoices):
        YB = "YB", _("Yellow/Blue")
        RG = "RG", _("Red/Green")

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="result_confirmations"
    )
    pair_side = models.CharField(max_length=2, choices=Side.choices)
    client_id = models.CharField(max_length=64)
    # The log the confirmation was given for; a take-back removes it.
    seq = models.PositiveIntegerField()
    log_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "pair_side"], name="result_confirm_once"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} {self.pair_side}"
