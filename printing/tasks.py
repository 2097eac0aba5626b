"""Celery tasks: thin wrappers that take ids and call services."""

from __future__ import annotations

from celery import shared_task

from core.errors import ApplicationError
from printing.services import print_job_run

MAX_RETRIES = 3


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True)
def print_job_build(self, job_id: int) -> None:  # type: ignore[no-untyped-def]
    """Build a print job's PDF; safe to run twice, retried with back-off on errors."""
    final_attempt = self.request.retries >= self.max_retries
    try:
        print_job_run(job_id=job_id, final_attempt=final_attempt)
    except ApplicationError:
        return  # a user-facing reason is stored on the job; retrying cannot help
    except Exception as exc:
        if final_attempt:
            raise
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc
