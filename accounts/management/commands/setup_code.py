"""Print a one-time code for the first-run setup page (a server with no account).

Usable anywhere the server runs (production too): ``python manage.py
setup_code``. Each run replaces the previous unused code. With
``--if-no-accounts`` it prints nothing when accounts exist (``runall``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from accounts.selectors import setup_open
from accounts.services import setup_code_issue
from core.errors import ApplicationError


class Command(BaseCommand):
    help = "Print a one-time code to create the first account at /setup/ (no account yet)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-no-accounts",
            action="store_true",
            help="Print nothing (and succeed) when the server has accounts.",
        )
        parser.add_argument("--site-url", default="", help="the address to print (SITE_URL)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_no_accounts"] and not setup_open():
            return
        try:
            code = setup_code_issue()
        except ApplicationError as error:
            raise CommandError(str(error)) from error
        site_url = (options["site_url"] or settings.SITE_URL).rstrip("/")
        minutes = settings.SETUP_CODE_MINUTES
        self.stdout.write(
            self.style.WARNING(
                "\nThis server has no account yet. Make the first one (the federation's "
                f"administrator) at {site_url}{reverse('accounts:setup')}\n"
                f"  with the one-time setup code  {code}\n"
                f"  (valid {minutes} minutes, once; a new one: python manage.py setup_code)\n"
            )
        )
