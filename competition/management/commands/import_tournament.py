"""``manage.py import_tournament FILE [--slug S] [--name N]``: restore or copy a backup."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.services.backup_import import tournament_import
from core.errors import ApplicationError
from core.request import read_json_file

# A whole championship with every move log is tens of megabytes.
MAX_BACKUP_BYTES = 512 * 1024 * 1024


class Command(BaseCommand):
    help = (
        "Import a tournament backup. Into an empty instance ids (and table QR codes) are "
        "kept; beside existing data ids are remapped and table tokens re-issued."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--slug", help="short name for the imported tournament")
        parser.add_argument("--name", help="name for the imported tournament")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with open(options["file"], "rb") as file:
                document = read_json_file(file, max_bytes=MAX_BACKUP_BYTES, max_depth=32)
        except OSError as exc:
            raise CommandError(f"cannot read {options['file']}: {exc}") from exc
        except ApplicationError as exc:
            raise CommandError(f"{exc.message_en} / {exc.message_da}") from exc
        try:
            tournament = tournament_import(
                document=document, slug=options["slug"], name=options["name"]
            )
        except ApplicationError as exc:
            raise CommandError(f"{exc.message_en} / {exc.message_da}") from exc
        mode = tournament.backup_mode  # type: ignore[attr-defined]
        detail = "ids and table QR codes kept" if mode == "restore" else "new ids and table tokens"
        self.stdout.write(self.style.SUCCESS(f"imported {tournament.slug!r} ({mode}: {detail})"))
