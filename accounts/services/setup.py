"""First-run setup: the first account of a server with none, behind a one-time code.

A server with no account (a fresh production install, a venue laptop
started without the demo) prints a code in its terminal (``runall`` on
start, ``manage.py setup_code`` anywhere). Whoever can read that terminal
may make the first account at ``/setup/``: the federation's administrator
(staff and superuser). Once any account exists the page is gone.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import SetupCode
from accounts.tokens import new_setup_code, secret_hash, setup_code_normalised
from core.errors import ApplicationError, Conflict
from core.users import User


class SetupCodeRefused(ApplicationError):
    status_code = 403


def setup_code_issue() -> str:
    """A new one-time setup code (earlier unused codes stop working); only without accounts."""
    if get_user_model().objects.exists():
        raise Conflict("setup_done", _("This server has accounts already: setup is closed."))
    now = timezone.now()
    code = new_setup_code()
    with transaction.atomic():
        SetupCode.objects.filter(used_at__isnull=True).delete()
        SetupCode.objects.create(
            code_hash=secret_hash(code),
            created_at=now,
            expires_at=now + datetime.timedelta(minutes=settings.SETUP_CODE_MINUTES),
        )
    return code


@transaction.atomic
def setup_complete(*, code: str, username: str, password: str, email: str = "") -> User:
    """Make the first account (staff, superuser) if ``code`` is a live, unused setup code.

    The code is claimed with a conditional update, so two people racing with
    the same code make one account; a second code cannot make a second first
    account either, as the claim also requires that no account exists.
    """
    now = timezone.now()
    digest = secret_hash(setup_code_normalised(code))
    entry = SetupCode.objects.select_for_update().filter(code_hash=digest).first()
    if entry is None:
        raise SetupCodeRefused("setup_code_wrong", _("That setup code is not right."))
    if entry.used_at is not None:
        raise SetupCodeRefused("setup_code_used", _("That setup code has been used already."))
    if entry.expires_at <= now:
        raise SetupCodeRefused(
            "setup_code_expired",
            _("That setup code has expired. Run: python manage.py setup_code"),
        )
    if get_user_model().objects.exists():
        raise Conflict("setup_done", _("This server has accounts already: setup is closed."))
    claimed = SetupCode.objects.filter(pk=entry.pk, used_at__isnull=True).update(used_at=now)
    if claimed != 1:
        raise SetupCodeRefused("setup_code_used", _("That setup code has been used already."))
    user: User = get_user_model().objects.create_superuser(
        username=username, email=email, password=password
    )
    return user
