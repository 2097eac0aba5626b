"""The human behind the players: one Person across every event and pair.

A tournament's ``Player`` is a name on one event's entry list; a ``Person`` is
who that is, so a season can follow a pair from qualifier to final and, later,
ratings can follow a player across partners. This app knows nothing of
tournaments: other apps point at ``Person``, never the other way round.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.validation import OneLineName
from people.keys import match_key


class Person(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[OneLineName("name")])
    club = models.CharField(_("club"), max_length=120, blank=True, validators=[OneLineName("club")])
    # people.keys.match_key of name and club: how registration finds a known person.
    name_key = models.CharField(max_length=120, db_index=True, editable=False)
    club_key = models.CharField(max_length=120, blank=True, editable=False)
    # The effective consent every public page reads: derived from the person's
    # ``ConsentRecord`` history (people.services_consent), never set directly.
    publish_consent = models.BooleanField(_("consent to publish the name"), default=False)
    consent_at = models.DateTimeField(_("consent given"), null=True, blank=True)
    # A duplicate an organiser merged: every reference moved to ``merged_into``;
    # the row stays so the merge can be undone and old links still resolve.
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="merged_duplicates",
        verbose_name=_("merged into"),
    )
    anonymised_at = models.DateTimeField(_("anonymised"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("person")
        verbose_name_plural = _("people")
        indexes = [models.Index(fields=["name_key", "club_key"], name="person_match_idx")]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(merged_into=models.F("pk")), name="person_not_merged_into_self"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The keys follow the name wherever it is edited (the admin too); an
        # anonymised person has none, so nobody is ever matched to it.
        if self.anonymised_at is None:
            self.name_key, self.club_key = match_key(self.name), match_key(self.club)
        super().save(*args, **kwargs)


class PersonAudit(models.Model):
    """A merge, its undoing, or an anonymisation: who, when, and what moved.

    A merge records the rows it repointed (``data["moved"]``: model label and
    field -> ids), which is what lets an organiser undo it exactly.
    """

    class Action(models.TextChoices):
        MERGE = "merge", _("Merged")
        MERGE_UNDO = "merge_undo", _("Merge undone")
        ANONYMISE = "anonymise", _("Anonymised")

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="audit")
    other = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    action = models.CharField(max_length=20, choices=Action.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Where the organiser acted from, e.g. "season:dm-2026" (people knows no seasons).
    context = models.CharField(max_length=120, blank=True)
    data = models.JSONField(default=dict, blank=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action} {self.person_id}"


class PersonMatch(models.Model):
    """A new person whose name and club are those of a known one, not linked.

    Registration, a CSV or backup import and an online sign-up link a player
    to a known person only when the event's own organisers may manage that
    person; any other match becomes this suggestion. Someone allowed to
    manage both people confirms it (a merge, ``new`` into ``known``) or
    dismisses it (two different humans), which is never suggested again.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Awaiting a decision")
        CONFIRMED = "confirmed", _("Confirmed (merged)")
        DISMISSED = "dismissed", _("Dismissed")

    new = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    known = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.OPEN)
    # Where the match was found, e.g. "tournament:12" (people knows no tournaments).
    context = models.CharField(max_length=120, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("suggested match")
        verbose_name_plural = _("suggested matches")
        constraints = [
            models.UniqueConstraint(fields=["new", "known"], name="personmatch_one_per_pair"),
            models.CheckConstraint(
                condition=~models.Q(new=models.F("known")), name="personmatch_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.new_id} ~ {self.known_id} ({self.status})"


class ConsentRecord(models.Model):
    """One step of a person's consent to publish: given or withdrawn, how, by whom.

    The history is the truth; ``Person.publish_consent`` follows from it
    (``people.services_consent``). A grant belongs to its ``source`` (a
    generic reference such as "signup:42" or "tournament:dm-2026": this app
    knows no tournaments). A withdrawal by the person or an organiser ends
    every grant; the end of a source (a sign-up withdrawn) ends only the
    grant that came from it.
    """

    class Via(models.TextChoices):
        EMAIL = "email", _("The person, through the link emailed to the sign-up")
        SIGNUP_PAGE = "signup_page", _("The person, on the sign-up's private page")
        ORGANISER = "organiser", _("Recorded by an organiser")
        SOURCE_ENDED = "source_ended", _("The sign-up it came from was withdrawn")
        LEGACY = "legacy", _("Given at sign-up (before email confirmation)")

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="consent_records")
    given = models.BooleanField()
    via = models.CharField(max_length=20, choices=Via.choices)
    source = models.CharField(max_length=120, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Not auto_now_add: the migration dates legacy consent at the time it was given.
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        verb = "given" if self.given else "withdrawn"
        return f"{self.created_at:%Y-%m-%d %H:%M} {verb} {self.person_id} ({self.via})"
