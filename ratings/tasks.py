"""Celery tasks of the ratings app: ids in, a service call, safe to run twice."""

from __future__ import annotations

from celery import shared_task


@shared_task(
    ignore_result=True,
    acks_late=True,
    autoretry_for=(Exception,),
    max_retries=3,
    retry_backoff=True,
)
def ratings_update(game_id: int) -> int:
    """Rate again from the game whose result changed (the same answer however often it runs)."""
    from ratings.services import ratings_update_from_game

    return ratings_update_from_game(game_id=game_id)
