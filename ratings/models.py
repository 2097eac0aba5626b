"""Ratings per person and per pair (two people), with one history row per game.

The current rating rows are what the last history row of each subject says;
``ratings.services`` keeps both in step. ``key`` is ``ratings.compute.game_key``:
the order games are rated in.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class _Skill(models.Model):
    # Rebuilt from the results after a merge of people, never moved by it.
    DERIVED_FROM_PEOPLE = True

    mu = models.FloatField(_("mean"))
    sigma = models.FloatField(_("uncertainty"))
    games = models.PositiveIntegerField(_("games"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True

    @property
    def ordinal(self) -> float:
        """The rating shown and sorted on: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


class PersonRating(_Skill):
    person = models.OneToOneField(
        "people.Person", on_delete=models.CASCADE, related_name="rating", primary_key=True
    )

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")

    def __str__(self) -> str:
        return f"{self.person_id}: {self.ordinal:.1f}"


class PairRating(_Skill):
    # The two people, lowest id first: the same pair whatever the event.
    person_low = models.ForeignKey("people.Person", on_delete=models.CASCADE, related_name="+")
    person_high = models.ForeignKey("people.Person", on_delete=models.CASCADE, related_name="+")

    class Meta:
        verbose_name = _("pair rating")
        verbose_name_plural = _("pair ratings")
        constraints = [
            models.UniqueConstraint(fields=["person_low", "person_high"], name="pair_rating_once"),
            models.CheckConstraint(
                condition=models.Q(person_low__lt=models.F("person_high")),
                name="pair_rating_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person_low_id}+{self.person_high_id}: {self.ordinal:.1f}"


class _Change(models.Model):
    DERIVED_FROM_PEOPLE = True

    # Lookups by game use the unique constraints below (game first): no index of its own,
    # which keeps rewriting a season's history fast.
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    key = models.CharField(max_length=48, db_index=True)
    side = models.CharField(max_length=2)
    won = models.BooleanField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        abstract = True

    @property
    def ordinal_before(self) -> float:
        return self.mu_before - 3 * self.sigma_before

    @property
    def ordinal_after(self) -> float:
        return self.mu_after - 3 * self.sigma_after


class PersonRatingChange(_Change):
    # Indexed by the (person, key) history index.
    person = models.ForeignKey(
        "people.Person", on_delete=models.CASCADE, related_name="+", db_index=False
    )

    class Meta:
        ordering = ["key"]
        constraints = [
            models.UniqueConstraint(fields=["game", "person"], name="person_rating_change_once")
        ]
        indexes = [models.Index(fields=["person", "key"], name="person_rating_history")]

    def __str__(self) -> str:
        return f"{self.person_id} {self.key}: {self.ordinal_after:.1f}"


class PairRatingChange(_Change):
    # Indexed by the (person_low, person_high, key) history index.
    person_low = models.ForeignKey(
        "people.Person", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    person_high = models.ForeignKey("people.Person", on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["key"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "person_low", "person_high"], name="pair_rating_change_once"
            )
        ]
        indexes = [
            models.Index(fields=["person_low", "person_high", "key"], name="pair_rating_history")
        ]

    def __str__(self) -> str:
        return f"{self.person_low_id}+{self.person_high_id} {self.key}: {self.ordinal_after:.1f}"
