"""Warn when a demo account still has the password the README publishes.

``runall --venue`` runs it on start: on the venue network those passwords
are refused at login, so the organiser learns before the day how to set real
ones. Exits 0 either way (a warning, not a failure).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from accounts.demo import accounts_with_demo_passwords


class Command(BaseCommand):
    help = "Warn about accounts that still have one of the demo's published passwords."

    def handle(self, *args: Any, **options: Any) -> None:
        names = accounts_with_demo_passwords()
        if not names:
            return
        listed = ", ".join(names)
        self.stderr.write(
            self.style.ERROR(
                f"\nWARNING: {listed} still "
                f"{'has' if len(names) == 1 else 'have'} the demo's published password.\n"
                "On the venue network (and in production) a login with it is refused. "
                "Set a real password now:\n"
                + "".join(f"  python manage.py changepassword {name}\n" for name in names)
            )
        )
