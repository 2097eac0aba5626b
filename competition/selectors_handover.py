"""What the organiser's page shows of the hand-over and the automatic backups."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from competition.models import AutoBackup, HandOver, VenueCopy
from tournament.models import Tournament


@dataclass(frozen=True)
class HandOverPanel:
    # On the website: the hand-over still open, else the last one.
    hand_over: HandOver | None
    # On the laptop: where the event came from.
    venue_copy: VenueCopy | None
    backup_folder: str
    backup_minutes: float
    auto_backup: AutoBackup | None

    @property
    def at_venue(self) -> bool:
        return self.hand_over is not None and self.hand_over.state == HandOver.State.AT_VENUE


def handover_panel(*, tournament: Tournament) -> HandOverPanel:
    return HandOverPanel(
        hand_over=HandOver.objects.filter(tournament=tournament).order_by("-created_at").first(),
        venue_copy=VenueCopy.objects.filter(tournament=tournament).first(),
        backup_folder=settings.VENUE_BACKUP_DIR,
        backup_minutes=settings.VENUE_BACKUP_MINUTES,
        auto_backup=AutoBackup.objects.filter(tournament=tournament).first(),
    )
