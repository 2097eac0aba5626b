"""Judge calls: a table asks for a judge, a judge takes the call and closes it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class JudgeCall(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for a judge")
        TAKEN = "taken", _("A judge is on the way")
        CLOSED = "closed", _("Closed")

    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="judge_calls"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="judge_calls")
    # The log entry the table points at ("this move"), if any.
    seq = models.PositiveIntegerField(_("entry"), null=True, blank=True)
    entry_text = models.CharField(max_length=120, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    # Made by the table device; a double tap or a retry carries the same id.
    client_id = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    taken_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    # True when this call paused the clock (so closing it resumes the clock).
    paused_clock = models.BooleanField(default=False)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("judge call")
        verbose_name_plural = _("judge calls")
        constraints = [
            models.UniqueConstraint(fields=["game", "client_id"], name="judge_call_client_once"),
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(status__in=["open", "taken"]),
                name="judge_call_one_open_per_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} call {self.pk} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status != self.Status.CLOSED
