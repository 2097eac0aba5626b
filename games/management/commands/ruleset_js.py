"""``manage.py ruleset_js [--check]``: write the table device's ruleset data."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.ruleset_js import RULESET_JS, ruleset_js


class Command(BaseCommand):
    help = "Write static/js/table/ruleset_data.js from the engine's registry of rulesets."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="Only fail if the file is stale; write nothing."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        text = ruleset_js()
        current = RULESET_JS.read_text(encoding="utf-8") if RULESET_JS.exists() else ""
        if options["check"]:
            if current != text:
                raise CommandError(f"{RULESET_JS} is stale: run `python manage.py ruleset_js`.")
            return
        if current != text:
            RULESET_JS.write_text(text, encoding="utf-8")
            self.stdout.write(f"Wrote {RULESET_JS}.")
