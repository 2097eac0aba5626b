"""``manage.py handover send|receive|back|return|take-back``: an event to the venue and back.

On the website: ``send <slug> --user <organiser> [-o file]`` writes the file for
the venue laptop (the event is then "at the venue"); later ``return <file>
--user <organiser>`` imports what the laptop sent back, or ``take-back <slug>
--user <organiser>`` ends the hand-over without a return. On the laptop:
``receive <file> --user <organiser> [--slug s]`` imports the event and
``back <slug> --user <organiser> [-o file]`` writes the finished event for the
website. Files are written readable by their owner only (0600). See
docs/operations.md, "From the website to the venue and back".
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.management.commands.import_tournament import MAX_BACKUP_BYTES
from competition.services.handover import (
    TO_VENUE,
    TO_WEBSITE,
    handover_export,
    handover_filename,
    handover_receive,
    handover_return_export,
    handover_return_import,
    handover_take_back,
)
from competition.services.private_files import write_private
from core.errors import ApplicationError
from core.request import read_json_file
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Hand an event from the website to a venue laptop and back (docs/operations.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["send", "receive", "back", "return", "take-back"])
        parser.add_argument("target", help="the event's short name, or the file to import")
        parser.add_argument("--user", required=True, help="the organiser doing it (audit trail)")
        parser.add_argument("-o", "--output", help="file to write (default <slug>-…json)")
        parser.add_argument("--slug", help="receive: short name for the event on this laptop")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(f"no user {options['user']!r}")
        action, target = options["action"], options["target"]
        try:
            if action == "send":
                tournament = self._event(target)
                self._write(
                    handover_export(tournament=tournament, actor=user),
                    options,
                    tournament,
                    TO_VENUE,
                )
            elif action == "back":
                tournament = self._event(target)
                self._write(
                    handover_return_export(tournament=tournament, actor=user),
                    options,
                    tournament,
                    TO_WEBSITE,
                )
            elif action == "receive":
                tournament = handover_receive(
                    document=self._read(target), actor=user, slug=options["slug"]
                )
                self.stdout.write(
                    self.style.SUCCESS(
                        f"imported {tournament.slug!r}; {user.get_username()} organises it here"
                    )
                )
            elif action == "return":
                handover = handover_return_import(document=self._read(target), actor=user)
                self.stdout.write(
                    self.style.SUCCESS(
                        f"{handover.tournament.slug!r} is back: results, logs and rulings "
                        "imported; ratings and the season follow"
                    )
                )
            else:
                handover_take_back(tournament=self._event(target), actor=user)
                self.stdout.write(
                    self.style.SUCCESS(f"{target!r} taken back: the website's version stands")
                )
        except ApplicationError as exc:
            raise CommandError(f"{exc.message_en} / {exc.message_da}") from exc

    def _event(self, slug: str) -> Tournament:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament with the short name {slug!r}")
        return tournament

    def _read(self, path: str) -> Any:
        try:
            with open(path, "rb") as file:
                return read_json_file(file, max_bytes=MAX_BACKUP_BYTES, max_depth=32)
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc}") from exc

    def _write(
        self,
        document: dict[str, Any],
        options: dict[str, Any],
        tournament: Tournament,
        direction: str,
    ) -> None:
        output = options["output"] or handover_filename(tournament=tournament, direction=direction)
        text = json.dumps(document, ensure_ascii=False, indent=1)
        write_private(output, text)
        self.stderr.write(self.style.SUCCESS(f"wrote {output} ({len(text)} bytes)"))
