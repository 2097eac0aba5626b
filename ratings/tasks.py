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
def ratings_update(game_id: int | None) -> int:
    """Rate again from the game whose result changed, or from scratch (``None``: people
    were merged). The same answer however often it runs."""
    from ratings.services import ratings_recompute, ratings_update_from_game

    if game_id is None:
        return ratings_recompute()
    return ratings_update_from_game(game_id=game_id)
