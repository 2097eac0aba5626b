"""Events, their staff, players and pairs, rounds.

Games (a table in a round) live in the ``games`` app; this app owns who plays
and how rounds are made.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from core.ruleset_field import ruleset_choices
from core.validation import OneLineName
from games.engine import DM2023, VARIANTS, Variant, find_variant

TIEBREAK_CHOICES = [
    ("buchholz", _("Buchholz (sum of opponents' points)")),
    ("wins", _("Wins")),
    ("locked_diff", _("Locked-pawn difference")),
    ("distance_diff", _("Remaining-distance difference")),
    ("head_to_head", _("Head-to-head")),
]
DEFAULT_TIEBREAKS = ["buchholz", "wins", "locked_diff", "distance_diff", "head_to_head"]


# The settings of a tournament, in the order forms and the API show them: the
# one list the form, the serializer and the services read (the slug, the
# data version and the staff are not settings).
TOURNAMENT_SETTINGS = (
    "name",
    "date",
    "venue",
    "ruleset",
    "time_limit_minutes",
    "alert_minutes",
    "swiss_rounds",
    "knockout_size",
    "third_place_game",
    "points_win",
    "points_loss",
    "points_bye",
    "tiebreaks",
    "adjudication",
    "pause_clock_on_call",
    "clock_speed",
    "published",
    "language",
    "signup_closes_at",
    "signup_capacity",
    "signup_approval",
)


def singles_rulesets() -> list[str]:
    """The rulesets played in singles: an entrant (a ``Pair`` row) is one player."""
    return [variant.name for variant in VARIANTS.values() if variant.singles]


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


class Tournament(models.Model):
    class Adjudication(models.TextChoices):
        DISTANCE = "distance", _("Remaining distance")
        LOCKED_THEN_DISTANCE = "locked_then_distance", _("Locked pawns, then remaining distance")

    name = models.CharField(_("name"), max_length=200, validators=[OneLineName("name")])
    slug = models.SlugField(_("short name (URL)"), max_length=80, unique=True)
    date = models.DateField(_("date"))
    venue = models.CharField(
        _("venue"), max_length=200, blank=True, validators=[OneLineName("venue")]
    )
    ruleset = models.CharField(
        _("ruleset"), max_length=20, choices=ruleset_choices, default=DM2023.name
    )
    time_limit_minutes = models.PositiveSmallIntegerField(
        _("game time limit (minutes)"), default=60
    )
    alert_minutes = models.PositiveSmallIntegerField(_("judge alert (minutes)"), default=50)
    swiss_rounds = models.PositiveSmallIntegerField(_("Swiss rounds"), default=5)
    knockout_size = models.PositiveSmallIntegerField(
        _("knockout size"),
        default=0,
        choices=[(0, _("No knockout")), (4, "4"), (8, "8"), (16, "16")],
    )
    third_place_game = models.BooleanField(_("third-place game"), default=False)
    points_win = models.PositiveSmallIntegerField(_("points for a win"), default=2)
    points_loss = models.PositiveSmallIntegerField(_("points for a loss"), default=0)
    points_bye = models.PositiveSmallIntegerField(_("points for a bye"), default=2)
    tiebreaks = models.JSONField(_("tiebreak order"), default=default_tiebreaks)
    adjudication = models.CharField(
        _("time-out adjudication"),
        max_length=30,
        choices=Adjudication.choices,
        default=Adjudication.DISTANCE,
    )
    pause_clock_on_call = models.BooleanField(
        _("pause the clock while a judge call is open"), default=True
    )
    # Seconds of real time per game-clock minute divided by 60: 1.0 is real
    # time; demos and tests make minutes pass faster.
    clock_speed = models.FloatField(_("clock speed"), default=1.0)
    # A new event is seen only by its organisers and judges until they publish it.
    published = models.BooleanField(_("public"), default=False)
    # What every visitor of the event's pages sees until they choose another
    # language: a Danish event is Danish also in an English-language browser.
    language = models.CharField(
        _("language of the event"),
        max_length=8,
        choices=settings.LANGUAGES,
        default="da",
        help_text=_("Visitors see the event's pages in this language and can switch."),
    )
    # Online sign-up (the signup app): open until this time; empty = no online sign-up.
    signup_closes_at = models.DateTimeField(
        _("online sign-up closes"),
        null=True,
        blank=True,
        help_text=_("Leave empty for no online sign-up."),
    )
    signup_capacity = models.PositiveSmallIntegerField(
        _("places"),
        null=True,
        blank=True,
        help_text=_(
            "Pairs that can take part; later sign-ups go on the waitlist. Empty: no limit."
        ),
    )
    signup_approval = models.BooleanField(_("the organiser approves each sign-up"), default=False)
    # Bumped by every write that changes what public pages show, so cached
    # pages can be keyed on it and never go stale across processes.
    data_version = models.PositiveBigIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(alert_minutes__lt=models.F("time_limit_minutes")),
                name="tournament_alert_before_limit",
            ),
            models.CheckConstraint(
                condition=models.Q(knockout_size__in=[0, 4, 8, 16]),
                name="tournament_knockout_size_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def variant(self) -> Variant:
        """The ruleset's variant in the engine's registry: every fact about the ruleset
        (seats, singles, pawns per side, time-out rule, notation examples)."""
        return find_variant(self.ruleset)

    @property
    def is_singles(self) -> bool:
        """Entrants are single players (DUO, two at a table), not pairs."""
        return find_variant(self.ruleset).singles

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats at a table, the first dealer's choices: Y and R in singles."""
        return find_variant(self.ruleset).seats


class TournamentRole(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        JUDGE = "judge", _("Judge")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles"
    )
    role = models.CharField(max_length=20, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="tournament_role_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} — {self.tournament}"


class Player(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=120, validators=[OneLineName("name")])
    club = models.CharField(_("club"), max_length=120, blank=True, validators=[OneLineName("club")])
    # The human across events (people app); set on registration by matching.
    person = models.ForeignKey(
        "people.Person",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Pair(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        DROPPED = "dropped", _("Dropped")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairs")
    start_number = models.PositiveIntegerField(_("start number"))
    name = models.CharField(
        _("pair name"), max_length=200, blank=True, validators=[OneLineName("name")]
    )
    player_1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    # Empty for an entrant of a singles event (``Tournament.is_singles``).
    player_2 = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    club = models.CharField(_("club"), max_length=120, blank=True, validators=[OneLineName("club")])
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    rating = models.IntegerField(_("rating"), null=True, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    # A late entry starts on 0 points from this round on.
    first_round = models.PositiveSmallIntegerField(_("first round"), default=1)
    fixed_table = models.PositiveSmallIntegerField(_("fixed table"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["start_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "start_number"], name="pair_start_number_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(player_2__isnull=True)
                | ~models.Q(player_1=models.F("player_2")),
                name="pair_two_players",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def players(self) -> list[Player]:
        """The entrant's players: two in a pair, one in a singles event."""
        return [p for p in (self.player_1, self.player_2) if p is not None]

    @property
    def player_names(self) -> str:
        """The players' names: "Anne & Bo" for a pair, "Anne" for a single player."""
        return " & ".join(p.name for p in self.players)

    @property
    def display_name(self) -> str:
        players = self.player_names
        return f"{self.name} ({players})" if self.name else players


# The highest round number a request may name (an event has a dozen rounds).
MAX_ROUND_NUMBER = 1000


class Round(models.Model):
    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss (Monrad)")
        KNOCKOUT = "knockout", _("Knockout")
        # Games between pairs tied at the knockout cut; they count in no standings.
        PLAYOFF = "playoff", _("Playoff")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft (not published)")
        PUBLISHED = "published", _("Published")
        IN_PROGRESS = "in_progress", _("In progress")
        CLOSED = "closed", _("Closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.SWISS)
    # Knockout: 1 = first knockout round; the last is the final.
    knockout_stage = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    # The recorded random draw (round 1 by draw, first dealers, colours).
    random_seed = models.BigIntegerField(null=True, blank=True)
    # How the round was paired ("seed", "random", "monrad", "knockout"), so a
    # re-pair uses the same method.
    pairing_method = models.CharField(max_length=20, blank=True)
    # Knockout: number of bracket matches in this round (8 in a round of 16,
    # 1 in the final). A game with bracket_slot above it is the third-place game.
    bracket_matches = models.PositiveSmallIntegerField(null=True, blank=True)
    # Warnings for the organiser (e.g. unavoidable rematches) and a short
    # explanation per table, produced by the pairing service.
    warnings = models.JSONField(default=list, blank=True)
    explanation = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {self.number}"

    @property
    def stage_name(self) -> str:
        """What the round is called besides its number: a knockout round's stage
        ("Semi-finals"), "Playoff"; empty for a Monrad round (docs/glossary.md)."""
        if self.kind == self.Kind.PLAYOFF:
            return str(_("Playoff"))
        if self.kind != self.Kind.KNOCKOUT or not self.bracket_matches:
            return ""
        names = {1: _("Final"), 2: _("Semi-finals"), 4: _("Quarter-finals"), 8: _("Round of 16")}
        return str(names.get(self.bracket_matches, _("Knockout round")))


class Bye(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="byes")
    points = models.PositiveSmallIntegerField()
    # Knockout: the bracket slot the pair advances from without playing.
    bracket_slot = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "pair"], name="bye_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round} — bye — {self.pair_id}"


class AuditEntry(models.Model):
    """Every correction leaves a trace: who did what, when, to which object."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="audit_entries"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=60)
    target = models.CharField(max_length=200, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action} {self.target}"
