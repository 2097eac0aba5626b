"""Celery tasks of the games app: thin, idempotent, ids in, services out."""

from __future__ import annotations

from celery import shared_task

from games.signals import clock_mark_reached


@shared_task(ignore_result=True, acks_late=True)
def clock_mark_due(game_id: int, kind: str) -> bool:
    """Fired at a clock mark (ETA). Safe to run twice, early or late.

    If the mark moved (pause, extension) the clock in the database says it is
    not due and nothing happens; the task queued for the new time raises it.
    The alert itself is the judges' (``judging.receivers``): True when one
    was raised.
    """
    answers = clock_mark_reached.send(sender=None, game_id=game_id, kind=kind)
    return any(raised is not None for _receiver, raised in answers)
