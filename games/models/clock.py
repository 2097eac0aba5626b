"""The game clock: one per game, its whole state in the database.

Time is kept in *real* seconds (``started_at``, ``paused_real_s``) and
converted to *clock* seconds with ``speed`` (clock-minutes per real minute,
copied from the tournament when the clock starts). ``alert_due_at`` and
``limit_due_at`` are the real instants of the two judge marks, recomputed on
every start/pause/resume/extend and cleared while paused, stopped or timed
out; the alert sweep is one indexed query on them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class GameClock(models.Model):
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="clock")
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    paused_at = models.DateTimeField(_("paused since"), null=True, blank=True)
    # Real seconds spent in finished pauses.
    paused_real_s = models.FloatField(default=0.0)
    extension_minutes = models.PositiveIntegerField(_("extra minutes"), default=0)
    stopped_at = models.DateTimeField(_("stopped"), null=True, blank=True)
    speed = models.FloatField(_("clock speed"), default=1.0)
    limit_minutes = models.PositiveSmallIntegerField(_("time limit (minutes)"), default=60)
    alert_minutes = models.PositiveSmallIntegerField(_("judge alert (minutes)"), default=50)
    alert_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    limit_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("game clock")
        verbose_name_plural = _("game clocks")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(speed__gt=0), name="game_clock_speed_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"clock {self.game_id}"


class ClockEvent(models.Model):
    """What happened to a clock, by whom and why (the audit trail)."""

    class Kind(models.TextChoices):
        START = "start", _("Started")
        PAUSE = "pause", _("Paused")
        RESUME = "resume", _("Resumed")
        EXTEND = "extend", _("Extended")
        STOP = "stop", _("Stopped")

    clock = models.ForeignKey(GameClock, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    at = models.DateTimeField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.clock_id} {self.kind} {self.at:%H:%M:%S}"
