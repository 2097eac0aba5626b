"""Models of the games app, one module per subdomain (game, move log, clock)."""

from games.models.clock import ClockEvent, GameClock
from games.models.game import MAX_TABLE_NUMBER, SEAT_CHOICES, Game
from games.models.move_log import MAX_ENTRY_NUMBER, MoveEntry, ResultConfirmation

__all__ = [
    "MAX_ENTRY_NUMBER",
    "MAX_TABLE_NUMBER",
    "SEAT_CHOICES",
    "ClockEvent",
    "Game",
    "GameClock",
    "MoveEntry",
    "ResultConfirmation",
]
