"""Deactivating an account: it cannot log in, and its sessions end at once.

A deactivated account is kept (the audit trail names it), never deleted.
Django's login backend refuses an inactive user both at login and for an
existing session; the user's stored sessions are deleted too, so nothing of
them is left. Staff may deactivate (and reactivate) any account but their
own last active staff one; a user may deactivate their own account.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import Conflict, PermissionDenied
from core.users import Actor, User, signed_in


def _staff(actor: Actor) -> bool:
    member = signed_in(actor)
    return member is not None and member.is_active and member.is_staff


def user_sessions_end(*, user: User) -> int:
    """Delete the stored sessions of ``user``; how many were ended."""
    ended = 0
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.get_decoded().get("_auth_user_id") == str(user.pk):
            session.delete()
            ended += 1
    return ended


@transaction.atomic
def user_deactivate(*, actor: Actor, user: User) -> None:
    member = signed_in(actor)
    if member is None or (member.pk != user.pk and not _staff(actor)):
        raise PermissionDenied(_("Only the federation's staff may deactivate another account."))
    if user.is_staff and user.is_active:
        others = get_user_model().objects.filter(is_staff=True, is_active=True).exclude(pk=user.pk)
        if not others.exists():
            raise Conflict("last_staff", _("The last active staff account cannot be deactivated."))
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    user.is_active = False
    user_sessions_end(user=user)


@transaction.atomic
def user_reactivate(*, actor: Actor, user: User) -> None:
    if not _staff(actor):
        raise PermissionDenied(_("Only the federation's staff may reactivate an account."))
    get_user_model().objects.filter(pk=user.pk).update(is_active=True)
    user.is_active = True
