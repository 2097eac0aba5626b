"""Celery tasks of the games app: thin, idempotent, ids in, services out."""

from __future__ import annotations

from celery import shared_task


@shared_task(ignore_result=True, acks_late=True)
def clock_mark_due(game_id: int, kind: str) -> bool:
    """Fired at a clock mark (ETA). Safe to run twice, early or late.

    If the mark moved (pause, extension) the clock in the database says it is
    not due and nothing happens; the task queued for the new time raises it.
    """
    from judging.services.alerts import alert_raise_if_due

    return alert_raise_if_due(game_id=game_id, kind=kind) is not None
