"""The demo's published logins, and the refusal of their passwords where it is real.

The README prints these passwords, so anyone at a venue knows them. The demo
(``manage.py demo_tournament``) creates the two accounts with them in an
empty database only. On the venue network (``runall --venue``) and in
production, ``settings.REFUSE_DEMO_PASSWORDS`` is on: a login typing one of
them is refused with a message that says how to set a real password, and
``runall --venue`` warns while a demo account still has one.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model

# username -> the password the README publishes
DEMO_PASSWORDS: dict[str, str] = {
    "organiser": "demo-organiser",
    "judge": "demo-judge",
}


def is_demo_password(password: str) -> bool:
    """Whether ``password`` is one of the published demo passwords (for any account)."""
    return password in DEMO_PASSWORDS.values()


def demo_passwords_refused() -> bool:
    """Whether this process refuses the published passwords (venue network, production)."""
    return bool(getattr(settings, "REFUSE_DEMO_PASSWORDS", False))


def accounts_with_demo_passwords() -> list[str]:
    """Usernames of active accounts that still have a published demo password."""
    found = []
    users = get_user_model().objects.filter(is_active=True)
    for user in users.filter(username__in=list(DEMO_PASSWORDS)):
        if any(user.check_password(password) for password in DEMO_PASSWORDS.values()):
            found.append(user.get_username())
    return found
