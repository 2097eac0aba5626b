"""Games: one table of one round, its access token, clock and result.

The move log and clock details are added by their own modules; the result
fields here are what standings read.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

SEAT_CHOICES = [("Y", _("Yellow")), ("R", _("Red")), ("B", _("Blue")), ("G", _("Green"))]
# The highest table number a request may name (a DM final has about a hundred).
MAX_TABLE_NUMBER = 10_000


class Game(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Not started")
        IN_PROGRESS = "in_progress", _("In progress")
        TIME_UP = "time_up", _("Time up — awaiting adjudication")
        FINISHED = "finished", _("Finished")

    class Winner(models.TextChoices):
        NONE = "", _("No result")
        YB = "YB", _("Yellow/Blue")
        RG = "RG", _("Red/Green")

    class ResultSource(models.TextChoices):
        NONE = "", _("No result")
        TYPED = "typed", _("Entered by the organiser")
        LOG = "log", _("From the move log, confirmed by the table")
        ADJUDICATED = "adjudicated", _("Adjudicated on time")
        JUDGE = "judge", _("Awarded by a judge")

    round = models.ForeignKey("tournament.Round", on_delete=models.CASCADE, related_name="games")
    table_number = models.PositiveSmallIntegerField(_("table"))
    # The pair playing Yellow/Blue and the pair playing Red/Green.
    pair_yb = models.ForeignKey(
        "tournament.Pair", on_delete=models.PROTECT, related_name="games_as_yb"
    )
    pair_rg = models.ForeignKey(
        "tournament.Pair", on_delete=models.PROTECT, related_name="games_as_rg"
    )
    first_dealer = models.CharField(_("first dealer"), max_length=1, choices=SEAT_CHOICES)
    # Knockout: position in the bracket of this round (1-based), else null.
    bracket_slot = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.SCHEDULED)

    # Table access: the token itself is never stored. ``token_nonce`` (random)
    # lets the server re-derive the printable token; ``token_hash`` finds the
    # game from a presented token. Rotating the nonce revokes the old token.
    token_nonce = models.CharField(max_length=64, blank=True)
    token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    # The digest of a token issued under a secret key this instance no longer
    # has (a restore onto another DJANGO_SECRET_KEY): its printed QR codes keep
    # working beside the new token until the table link is rotated.
    carried_token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    short_code = models.CharField(max_length=12, blank=True, db_index=True)

    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    winner = models.CharField(max_length=2, choices=Winner.choices, default="", blank=True)
    result_source = models.CharField(
        max_length=20, choices=ResultSource.choices, default="", blank=True
    )
    locked_yb = models.PositiveSmallIntegerField(null=True, blank=True)
    locked_rg = models.PositiveSmallIntegerField(null=True, blank=True)
    distance_yb = models.PositiveSmallIntegerField(null=True, blank=True)
    distance_rg = models.PositiveSmallIntegerField(null=True, blank=True)
    timed_out = models.BooleanField(default=False)
    result_note = models.CharField(max_length=500, blank=True)
    # A time-out result W3 decides otherwise (or not at all): the judge's reason.
    result_override = models.CharField(
        _("reason for overriding the adjudication"), max_length=500, blank=True
    )
    result_recorded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "table_number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table_number"], name="game_table_unique"),
            models.CheckConstraint(
                condition=~models.Q(pair_yb=models.F("pair_rg")), name="game_two_pairs"
            ),
            models.CheckConstraint(
                condition=models.Q(winner="") | models.Q(result_source__gt=""),
                name="game_result_has_source",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} — table {self.table_number}"

    @property
    def winner_pair(self):  # type: ignore[no-untyped-def]
        if self.winner == "YB":
            return self.pair_yb
        if self.winner == "RG":
            return self.pair_rg
        return None

    @property
    def has_result(self) -> bool:
        return bool(self.winner)
