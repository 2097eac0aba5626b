"""``manage.py export_tournament <slug> [-o FILE]``: the whole tournament as one JSON file.

The file is written readable by its owner only (0600): it holds every table's
short code and token nonce.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.services.backup import backup_filename, tournament_export
from competition.services.private_files import write_private
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Export a tournament (settings, pairs, rounds, results, move logs, rulings, alerts)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument(
            "-o", "--output", help="file to write ('-' for stdout; default <slug>-<time>.json)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"no tournament with the short name {options['slug']!r}")
        text = json.dumps(tournament_export(tournament=tournament), ensure_ascii=False, indent=1)
        output = options["output"] or backup_filename(tournament=tournament)
        if output == "-":
            self.stdout.write(text)
            return
        write_private(output, text)
        self.stderr.write(self.style.SUCCESS(f"wrote {output} ({len(text)} bytes)"))
