"""Automatic backups during the event: every few minutes, to a folder the organiser
chose (a USB stick), rotating.

``VENUE_BACKUP_DIR`` names the folder (``make venue BACKUP_DIR=/media/usb``);
beat runs ``competition.tasks.auto_backups`` every ``VENUE_BACKUP_MINUTES``.
Each event changed since its last file gets ``<folder>/<slug>/<slug>-<time>.json``
(the backup document of ``tournament_export``, mode 0600, written under a
temporary name and renamed); only the newest ``VENUE_BACKUP_KEEP`` files of an
event stay. A missing or read-only folder is no crash: the reason is kept on
each event's ``AutoBackup`` row, and the organiser's page shows it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

from django.conf import settings
from django.db.models import Count, Max
from django.utils import timezone

from competition.models import AutoBackup
from competition.services.backup import backup_models, tournament_export, tournament_path
from competition.services.private_files import write_private_atomically
from tournament.models import Tournament

logger = logging.getLogger(__name__)

# Why the last attempt failed (the page says it in the reader's language).
MISSING = "missing"
NOT_WRITABLE = "not_writable"
WRITE_FAILED = "write_failed"


def _fingerprint(tournament: Tournament) -> str:
    """Changes whenever a row of the event is added, removed or its public data moves."""
    parts: list[object] = [tournament.data_version]
    for model in backup_models():
        path = tournament_path(model) or ""
        parts.append(
            model._default_manager.filter(**{path: tournament}).aggregate(
                n=Count("pk"), m=Max("pk")
            )
        )
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def _folder_problem(folder: Path) -> str:
    if not folder.is_dir():
        return MISSING
    if not os.access(folder, os.W_OK | os.X_OK):
        return NOT_WRITABLE
    probe = folder / ".dm-partners-write-test"
    try:  # a stick mounted read-only passes the access check
        probe.write_bytes(b"")
        probe.unlink()
    except OSError:
        return NOT_WRITABLE
    return ""


def _rotate(event_folder: Path, slug: str, keep: int) -> None:
    files = sorted(event_folder.glob(f"{slug}-*.json"))
    for old in files[: max(len(files) - keep, 0)]:
        old.unlink(missing_ok=True)


def auto_backups_write(*, folder: str | None = None, keep: int | None = None) -> list[AutoBackup]:
    """Back up every event changed since its last automatic backup; the rows touched."""
    folder = settings.VENUE_BACKUP_DIR if folder is None else folder
    keep = settings.VENUE_BACKUP_KEEP if keep is None else keep
    if not folder:
        return []
    root = Path(folder)
    now = timezone.now()
    touched = []
    problem = _folder_problem(root)
    for tournament in Tournament.objects.order_by("pk"):
        state, _created = AutoBackup.objects.get_or_create(tournament=tournament)
        if problem:
            state.error, state.error_at = problem, now
            state.save(update_fields=["error", "error_at"])
            touched.append(state)
            continue
        fingerprint = _fingerprint(tournament)
        if fingerprint == state.fingerprint and not state.error:
            continue
        event_folder = root / tournament.slug
        path = event_folder / f"{tournament.slug}-{timezone.localtime(now):%Y%m%d-%H%M%S-%f}.json"
        try:
            event_folder.mkdir(mode=0o700, exist_ok=True)
            text = json.dumps(tournament_export(tournament=tournament), ensure_ascii=False)
            write_private_atomically(str(path), text)
            _rotate(event_folder, tournament.slug, keep)
        except OSError as exc:
            logger.warning("automatic backup of %s to %s failed: %s", tournament.slug, root, exc)
            state.error, state.error_at = WRITE_FAILED, now
            state.save(update_fields=["error", "error_at"])
            touched.append(state)
            continue
        state.fingerprint, state.last_at, state.last_file = fingerprint, now, str(path)
        state.error, state.error_at = "", None
        state.save()
        touched.append(state)
    if problem:
        logger.warning("automatic backups: the folder %s is %s", root, problem.replace("_", " "))
    return touched
