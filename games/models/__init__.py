"""Models of the games app, one module per subdomain (game, move log, clock)."""

from games.models.clock import ClockEvent, GameClock
from games.models.game import SEAT_CHOICES, Game
from games.models.move_log import MoveEntry, ResultConfirmation

__all__ = ["SEAT_CHOICES", "ClockEvent", "Game", "GameClock", "MoveEntry", "ResultConfirmation"]
