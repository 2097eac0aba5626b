"""Rulings and the record of refused moves.

A ruling that changes the game is also an entry of the game's move log (a
judge entry such as ``! VOID 12``, see docs/judging.md); this row keeps who,
when, why and which rule, searchable across the event.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Ruling(models.Model):
    class Kind(models.TextChoices):
        UPHOLD = "uphold", _("Log upheld")
        VOID = "void", _("Entry voided")
        POSITION = "position", _("Position corrected")
        PENALTY = "penalty", _("Penalty")
        WARNING = "warning", _("Warning")
        RESULT = "result", _("Result awarded")
        ADJUDICATION = "adjudication", _("Adjudicated on time")
        UNDO = "undo", _("Ruling undone")

    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="rulings"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rulings")
    call = models.ForeignKey(
        "judging.JudgeCall",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rulings",
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # A RULES.md id (P1, F6, W3, …) or blank.
    rule = models.CharField(_("rule"), max_length=4, blank=True, db_index=True)
    # The seat concerned (penalties, warnings) and its pair, for incident history.
    seat = models.CharField(max_length=1, blank=True)
    pair = models.ForeignKey(
        "tournament.Pair", null=True, blank=True, on_delete=models.SET_NULL, related_name="rulings"
    )
    # The log entry the ruling is about, and the judge entries it wrote.
    entry_seq = models.PositiveIntegerField(null=True, blank=True)
    log_entries = models.JSONField(default=list, blank=True)
    reason = models.TextField(_("reason"), max_length=1000)
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    data = models.JSONField(default=dict, blank=True)
    # The ruling (kind UNDO) by which a judge undid this one (RULES.md J2);
    # set once, by a conditional update, so a ruling is undone at most once.
    undone_by = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="undoes"
    )

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
        indexes = [models.Index(fields=["tournament", "rule"], name="ruling_tournament_rule")]

    def __str__(self) -> str:
        return f"{self.game} {self.kind} {self.rule}"


class MoveRefusal(models.Model):
    """An entry the engine refused at a table: part of the players' incident history."""

    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="move_refusals"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="move_refusals")
    seat = models.CharField(max_length=1, blank=True)
    pair = models.ForeignKey(
        "tournament.Pair", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    text = models.CharField(max_length=120)
    rule = models.CharField(max_length=4, blank=True)
    message_en = models.CharField(max_length=500, blank=True)
    message_da = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.game} refused {self.text}"
