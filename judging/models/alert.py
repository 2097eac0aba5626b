"""Judge alerts at the alert mark (50 min) and the time limit (60 min).

The row is the truth: ``(game, kind)`` is unique, so however many tasks,
retries, sweeps or workers try to raise the same alert, one row exists.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Alert(models.Model):
    class Kind(models.TextChoices):
        ALERT_MARK = "alert", _("Alert mark reached")
        TIME_LIMIT = "limit", _("Time limit reached")

    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="alerts"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="alerts")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # When the mark fell due by the clock, and when the row was written:
    # the difference is the alert latency.
    due_at = models.DateTimeField()
    raised_at = models.DateTimeField(db_index=True)
    # Clock minute of the mark and the overrun prediction at raise time
    # (see docs/clock.md): {"elapsed_s", "predicted_finish_s", "overrun_s",
    # "progress", "known"}.
    mark_minute = models.PositiveSmallIntegerField()
    prediction = models.JSONField(default=dict, blank=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["raised_at", "pk"]
        verbose_name = _("alert")
        verbose_name_plural = _("alerts")
        constraints = [
            models.UniqueConstraint(fields=["game", "kind"], name="alert_once_per_game_and_kind"),
        ]
        indexes = [models.Index(fields=["tournament", "raised_at"], name="alert_tournament_raised")]

    def __str__(self) -> str:
        return f"{self.game} {self.kind}"

    @property
    def is_open(self) -> bool:
        return self.acknowledged_at is None
