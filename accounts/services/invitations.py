"""Invitations: an organiser gives a co-organiser or a judge a one-time link.

The link carries 256 random bits; the database keeps their SHA-256 only.
Whoever opens a live link makes an account (or, signed in, accepts with the
one they have) and gets the role in that event. A link is claimed by a
conditional update (used once, also when two phones race), dies after
``settings.INVITATION_DAYS`` and can be revoked by any organiser of the event.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from accounts.models import Invitation
from accounts.tokens import new_invitation_token, secret_hash
from core.errors import ApplicationError, Conflict
from core.users import Actor, User, signed_in
from tournament.models import Tournament, TournamentRole
from tournament.permissions import require_organiser
from tournament.services.audit import audit_record
from tournament.services.registration import tournament_role_grant_invited

logger = logging.getLogger(__name__)


class InvitationRefused(ApplicationError):
    status_code = 410


@dataclass(frozen=True)
class InvitationSent:
    """A new invitation, its link (shown once to the organiser), and whether it was emailed."""

    invitation: Invitation
    link: str
    emailed: bool


def invitation_refusal(invitation: Invitation | None) -> InvitationRefused:
    """Why a link no longer works: unknown or withdrawn, used, or expired."""
    state = invitation.state if invitation is not None else Invitation.State.REVOKED
    if state == Invitation.State.ACCEPTED:
        return InvitationRefused("invitation_used", _("This invitation link has been used."))
    if state == Invitation.State.EXPIRED:
        return InvitationRefused(
            "invitation_expired",
            _("This invitation link has expired. Ask the organiser for a new one."),
        )
    return InvitationRefused(
        "invitation_invalid",
        _("This invitation link is not valid (or was withdrawn)."),
        status=404,
    )


def invitation_link(token: str) -> str:
    site_url: str = settings.SITE_URL
    return site_url + reverse("accounts:invitation", kwargs={"invitation_token": token})


def invitation_create(
    *, tournament: Tournament, actor: Actor, role: TournamentRole.Role, email: str = ""
) -> InvitationSent:
    """A one-time link for ``role`` in ``tournament``; emailed too when ``email`` is given."""
    require_organiser(actor, tournament)
    token = new_invitation_token()
    now = timezone.now()
    with transaction.atomic():
        invitation = Invitation.objects.create(
            tournament=tournament,
            role=role,
            token_hash=secret_hash(token),
            email=email,
            created_by=signed_in(actor),
            created_at=now,
            expires_at=now + datetime.timedelta(days=settings.INVITATION_DAYS),
        )
        audit_record(
            tournament=tournament,
            actor=actor,
            action="invitation_create",
            target=f"invitation {invitation.pk}",
            data={"role": role},
        )
    link = invitation_link(token)
    emailed = bool(email) and _invitation_email(invitation=invitation, link=link)
    return InvitationSent(invitation=invitation, link=link, emailed=emailed)


def _invitation_email(*, invitation: Invitation, link: str) -> bool:
    """Send the link through Django's email framework; a failure leaves the link to copy."""
    context = {
        "tournament": invitation.tournament,
        "role": invitation.get_role_display().lower(),
        "link": link,
        "expires_at": invitation.expires_at,
        "inviter": invitation.created_by.get_username() if invitation.created_by else "",
    }
    # The event's language, as its pages: the organiser's own may not be the invitee's.
    with translation.override(invitation.tournament.language or settings.LANGUAGE_CODE):
        context["role"] = invitation.get_role_display().lower()
        subject = render_to_string("accounts/email/invitation_subject.txt", context).strip()
        body = render_to_string("accounts/email/invitation_body.txt", context)
    try:
        send_mail(subject, body, None, [invitation.email])
    except Exception:  # any mail failure: the organiser still has the link
        logger.warning("Invitation %s: the email could not be sent.", invitation.pk)
        return False
    return True


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, actor: Actor) -> None:
    require_organiser(actor, invitation.tournament)
    if invitation.state != Invitation.State.PENDING:
        raise Conflict("invitation_not_pending", _("This invitation is no longer waiting."))
    Invitation.objects.filter(pk=invitation.pk, accepted_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    audit_record(
        tournament=invitation.tournament,
        actor=actor,
        action="invitation_revoke",
        target=f"invitation {invitation.pk}",
        data={"role": invitation.role},
    )


def _claim(*, token: str, user: User) -> Invitation:
    """Mark the live invitation of ``token`` used by ``user``, or refuse."""
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("tournament", "created_by")
        .filter(token_hash=secret_hash(token))
        .first()
    )
    if invitation is None or invitation.state != Invitation.State.PENDING:
        raise invitation_refusal(invitation)
    claimed = Invitation.objects.filter(
        pk=invitation.pk,
        accepted_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    ).update(accepted_at=timezone.now(), accepted_by=user)
    if claimed != 1:
        raise InvitationRefused("invitation_used", _("This invitation link has been used."))
    return invitation


@transaction.atomic
def invitation_accept(*, token: str, actor: Actor) -> TournamentRole:
    """A signed-in user takes the role the invitation offers."""
    user = signed_in(actor)
    if user is None or not user.is_active:
        raise InvitationRefused("login_required", _("Log in first."), status=403)
    invitation = _claim(token=token, user=user)
    return tournament_role_grant_invited(
        tournament=invitation.tournament,
        user=user,
        role=TournamentRole.Role(invitation.role),
        invited_by=invitation.created_by,
    )


@transaction.atomic
def invitation_signup(*, token: str, username: str, password: str, email: str = "") -> User:
    """Make an account for the holder of a live invitation and give it the role.

    ``username`` and ``password`` come checked by the form (unique name,
    Django's password validators); the invitation is checked here, so a dead
    link makes no account.
    """
    user: User = get_user_model().objects.create_user(
        username=username, email=email, password=password
    )
    invitation = _claim(token=token, user=user)
    tournament_role_grant_invited(
        tournament=invitation.tournament,
        user=user,
        role=TournamentRole.Role(invitation.role),
        invited_by=invitation.created_by,
    )
    return user
