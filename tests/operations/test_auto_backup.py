"""Automatic backups to a chosen folder (a USB stick): written, rotated, refused folders."""

from __future__ import annotations

import json
import os
import stat

import pytest
from django.test import override_settings

from competition.models import AutoBackup
from competition.services.auto_backup import MISSING, NOT_WRITABLE, auto_backups_write
from competition.tasks import auto_backups
from tests.factories import PairFactory, TournamentFactory, organiser_of
from tournament.services.audit import audit_record


def _files(folder, slug):
    return sorted((folder / slug).glob(f"{slug}-*.json"))


@pytest.fixture
def event(db):
    tournament = TournamentFactory(slug="dm-usb")
    PairFactory(tournament=tournament, start_number=1)
    return tournament


def test_changed_events_are_written_private_and_rotated(event, tmp_path):
    auto_backups_write(folder=str(tmp_path), keep=3)
    (first,) = _files(tmp_path, "dm-usb")
    assert stat.S_IMODE(first.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "dm-usb").stat().st_mode) == 0o700
    assert json.loads(first.read_text())["tournament"]["slug"] == "dm-usb"
    state = AutoBackup.objects.get(tournament=event)
    assert state.last_at is not None and state.last_file == str(first) and state.error == ""

    auto_backups_write(folder=str(tmp_path), keep=3)  # nothing changed: no new file
    assert _files(tmp_path, "dm-usb") == [first]

    for n in range(4):
        audit_record(tournament=event, actor=None, action="test_change", data={"n": n})
        auto_backups_write(folder=str(tmp_path), keep=3)
    kept = _files(tmp_path, "dm-usb")
    assert len(kept) == 3 and first not in kept
    assert not list((tmp_path / "dm-usb").glob("*.partial"))


def test_a_missing_folder_is_reported_not_raised_and_recovers(event, tmp_path):
    stick = tmp_path / "usb"
    auto_backups_write(folder=str(stick), keep=3)
    assert AutoBackup.objects.get(tournament=event).error == MISSING
    stick.mkdir()
    auto_backups_write(folder=str(stick), keep=3)
    state = AutoBackup.objects.get(tournament=event)
    assert state.error == "" and len(_files(stick, "dm-usb")) == 1


def test_a_folder_that_cannot_be_written_is_reported(event, tmp_path):
    if os.geteuid() == 0:
        folder = "/proc"  # root writes anywhere but a read-only file system
    else:
        folder = str(tmp_path / "ro")
        os.mkdir(folder, 0o500)
    auto_backups_write(folder=folder, keep=3)
    assert AutoBackup.objects.get(tournament=event).error == NOT_WRITABLE


def test_without_a_folder_the_task_does_nothing(event):
    with override_settings(VENUE_BACKUP_DIR=""):
        assert auto_backups() == 0
    assert not AutoBackup.objects.exists()


def test_beat_runs_the_backups_every_few_minutes(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["venue-auto-backups"]
    assert entry["task"] == "competition.tasks.auto_backups"
    assert entry["schedule"] == 60.0 * settings.VENUE_BACKUP_MINUTES


def test_the_organiser_page_shows_the_last_backup_and_a_problem(event, tmp_path, client):
    organiser = organiser_of(event)
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    with override_settings(VENUE_BACKUP_DIR=str(tmp_path)):
        auto_backups_write()
        page = client.get(f"/organise/{event.slug}/").content.decode()
    assert "Last automatic backup" in page and str(tmp_path) in page
    with override_settings(VENUE_BACKUP_DIR=str(tmp_path / "gone")):
        auto_backups_write()
        page = client.get(f"/organise/{event.slug}/").content.decode()
    assert "is missing" in page


def test_runall_says_where_the_backups_go_or_that_the_stick_is_missing(tmp_path):
    from io import StringIO

    from core.management.commands.runall import Command

    for folder, expected in ((tmp_path, "every 5 minutes to"), (tmp_path / "gone", "missing")):
        command = Command(stdout=StringIO())
        with override_settings(VENUE_BACKUP_DIR=str(folder), VENUE_BACKUP_MINUTES=5.0):
            command._backups_banner()
        assert expected in command.stdout._out.getvalue()
