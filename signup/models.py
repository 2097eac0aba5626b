"""Online sign-up: a pair asks for a place in a tournament.

A sign-up within the tournament's places either becomes a pair of the
tournament at once or, when the organiser approves each sign-up, waits for
that approval holding its place; later ones queue on the waitlist and move
up when a place frees. The contact email is personal data: organisers see
it, nobody else (docs/signup.md).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.validation import OneLineName
from people.models import Person
from tournament.models import Pair, Tournament


class SignUp(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Awaiting approval")
        CONFIRMED = "confirmed", _("Confirmed")
        WAITLISTED = "waitlisted", _("On the waitlist")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        REJECTED = "rejected", _("Not accepted")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="signups")
    status = models.CharField(max_length=20, choices=Status.choices)
    pair_name = models.CharField(
        _("pair name"), max_length=200, blank=True, validators=[OneLineName("pair_name")]
    )
    player_1 = models.CharField(_("player 1"), max_length=120, validators=[OneLineName("player_1")])
    # Empty in a singles event (one player per entrant).
    player_2 = models.CharField(
        _("player 2"), max_length=120, blank=True, validators=[OneLineName("player_2")]
    )
    club = models.CharField(_("club"), max_length=120, blank=True, validators=[OneLineName("club")])
    # Empty once deleted (after the event, or on request).
    email = models.EmailField(_("contact email"), blank=True)
    # The language the pair signed up in: its emails are written in it.
    language = models.CharField(max_length=8, default="da")
    # When the form's box was ticked (the terms agreed). Publication waits for
    # the email's owner to confirm (``consent_confirmed_at``; signup.services.consent).
    consent_at = models.DateTimeField(_("consent to publish names given"))
    consent_confirmed_at = models.DateTimeField(
        _("publication confirmed by email"), null=True, blank=True
    )
    # The confirmation link is signed over (id, nonce): a new nonce (the link
    # used, or sent again) revokes the old one.
    consent_nonce = models.CharField(max_length=32, blank=True)
    person_1 = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="signups_first"
    )
    person_2 = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="signups_second"
    )
    # The tournament's pair once the sign-up has a confirmed place.
    pair = models.OneToOneField(
        Pair, null=True, blank=True, on_delete=models.SET_NULL, related_name="signup"
    )
    # The form's one-time id: the same submission sent twice is one sign-up.
    client_id = models.CharField(max_length=64)
    # The private link is signed over (id, nonce); a new nonce revokes the old link.
    link_nonce = models.CharField(max_length=32)
    note = models.CharField(_("note from the organiser"), max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    anonymised_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "client_id"], name="signup_client_id_unique"
            ),
            models.CheckConstraint(
                condition=~models.Q(status="confirmed") | models.Q(pair__isnull=False),
                name="signup_confirmed_has_pair",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        players = " & ".join(p for p in (self.player_1, self.player_2) if p)
        return f"{self.pair_name} ({players})" if self.pair_name else players


class SignUpEmail(models.Model):
    """One email to a sign-up's contact address, kept until it is sent.

    Written in the same transaction as the change it tells about, so a
    restarted worker or a broken mail server delays a message but never
    loses it (signup.tasks sweeps unsent ones).
    """

    class Kind(models.TextChoices):
        RECEIVED = "received", _("Received, awaiting approval")
        CONFIRMED = "confirmed", _("Place confirmed")
        WAITLISTED = "waitlisted", _("On the waitlist")
        MOVED_UP = "moved_up", _("Off the waitlist, awaiting approval")
        REJECTED = "rejected", _("Not accepted")
        WITHDRAWN = "withdrawn", _("Withdrawal confirmed")
        LINK = "link", _("Private link sent again")
        CONSENT = "consent", _("Confirm publication")

    signup = models.ForeignKey(SignUp, on_delete=models.CASCADE, related_name="emails")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    # A sender claims the row (conditional UPDATE) before sending: at most one sends it.
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["sent_at", "created_at"], name="signup_email_unsent_idx")]

    def __str__(self) -> str:
        return f"{self.signup_id} {self.kind}"
