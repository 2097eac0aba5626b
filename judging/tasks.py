"""Celery tasks of the judging app."""

from __future__ import annotations

from celery import shared_task

from core.health_marks import SWEEP_KEY, health_mark
from judging.services.alerts import alerts_raise_due


@shared_task(ignore_result=True)
def alerts_sweep() -> int:
    """Every second (beat): raise every due mark without an alert row.

    The safety net under the per-game ETA tasks: a lost task, a restarted
    worker or a restarted Redis delays an alert by at most one sweep.
    """
    raised = alerts_raise_due()
    health_mark(SWEEP_KEY)  # GET /health/ reports the sweep's age
    return raised
