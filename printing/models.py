"""Batch print jobs: one row (and one file) per round and document kind."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PrintJob(models.Model):
    class Kind(models.TextChoices):
        SCORE_SHEETS_A4 = "score_sheets_a4", _("Score sheets (A4)")
        SCORE_SHEETS_A5 = "score_sheets_a5", _("Score sheets (A5)")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="print_jobs"
    )
    round = models.ForeignKey(
        "tournament.Round", on_delete=models.CASCADE, related_name="print_jobs"
    )
    kind = models.CharField(max_length=30, choices=Kind.choices)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    language = models.CharField(max_length=8, default="da")
    progress = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # Score sheets carry table tokens: the file is served only through an
    # organiser-checked view, never from MEDIA_URL.
    file = models.FileField(upload_to="print/", max_length=300, blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["round", "kind"], name="printjob_one_per_round_kind"),
            models.CheckConstraint(
                condition=models.Q(progress__lte=models.F("total")),
                name="printjob_progress_within_total",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} — {self.get_kind_display()} — {self.get_status_display()}"

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return int(100 * self.progress / self.total) if self.total else 0

    @property
    def page_size(self) -> str:
        return "A5" if self.kind == self.Kind.SCORE_SHEETS_A5 else "A4"
