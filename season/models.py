"""A championship season: qualifiers, then a final for the pairs that qualified.

The season owns only what is its own (its rules, which tournaments belong to
it, its organisers). Results come from the tournaments; who is who comes from
``people``. The qualification ranking is computed from them whenever it is
read (season.selectors), so it is always as live as the results.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from core.validation import OneLineName
from tournament.models import Tournament

# A common shape for a points table (the first place's points first).
DEFAULT_POINTS_TABLE = [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]


def default_points_table() -> list[int]:
    return list(DEFAULT_POINTS_TABLE)


class Series(models.Model):
    class Method(models.TextChoices):
        TOP_N = "top_n", _("The best pairs of each qualifier")
        POINTS = "points", _("Best results on a points table")

    class Tiebreak(models.TextChoices):
        COUNTBACK = "countback", _("Best placings (most wins, then second places, …)")
        LATEST = "latest", _("Placing in the most recent qualifier")

    name = models.CharField(_("name"), max_length=200, validators=[OneLineName("name")])
    slug = models.SlugField(_("short name (URL)"), max_length=80, unique=True)
    description = models.TextField(_("description"), blank=True, max_length=2000)
    method = models.CharField(
        _("qualification"), max_length=20, choices=Method.choices, default=Method.TOP_N
    )
    qualifiers_per_event = models.PositiveSmallIntegerField(
        _("pairs that qualify from each qualifier"), default=4
    )
    pass_down = models.BooleanField(
        _("a pair that has already qualified passes its place on"),
        default=True,
        help_text=_("Its place goes to the next pair of the later qualifier."),
    )
    points_table = models.JSONField(_("points table"), default=default_points_table)
    best_results = models.PositiveSmallIntegerField(_("results that count"), default=3)
    final_places = models.PositiveSmallIntegerField(_("places in the final"), default=16)
    tiebreak = models.CharField(
        _("tiebreak"), max_length=20, choices=Tiebreak.choices, default=Tiebreak.COUNTBACK
    )
    published = models.BooleanField(_("public"), default=True)
    # Bumped by every write of the season; public pages are cached under it
    # and the versions of the season's tournaments (season.views.public).
    data_version = models.PositiveBigIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(qualifiers_per_event__gte=1), name="series_qualifiers_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(final_places__gte=2), name="series_final_places_min"
            ),
            models.CheckConstraint(
                condition=models.Q(best_results__gte=1), name="series_best_results_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class SeriesRole(models.Model):
    """An organiser of the season (staff users organise every season)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="series_roles"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["series", "user"], name="series_role_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.series}"


class SeriesEvent(models.Model):
    class Kind(models.TextChoices):
        QUALIFIER = "qualifier", _("Qualifier")
        FINAL = "final", _("Final")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="events")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="season_events"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.QUALIFIER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament__date", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["series", "tournament"], name="series_event_once_per_season"
            ),
            models.UniqueConstraint(
                fields=["series"],
                condition=models.Q(kind="final"),
                name="series_one_final",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series} — {self.tournament} ({self.kind})"


class SeriesAudit(models.Model):
    """Every change to a season: who did what, when."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=60)
    target = models.CharField(max_length=200, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action} {self.target}"
