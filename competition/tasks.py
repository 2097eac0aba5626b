"""Celery tasks of the competition app: a service call, safe to run twice."""

from __future__ import annotations

from celery import shared_task


@shared_task(ignore_result=True, acks_late=True)
def auto_backups() -> int:
    """Write the automatic backups due (competition.services.auto_backup); how many."""
    from competition.services.auto_backup import auto_backups_write

    return len(auto_backups_write())
