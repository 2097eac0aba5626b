"""Models of the games app, one module per subdomain (game, move log, clock)."""

from games.models.game import SEAT_CHOICES, Game

__all__ = ["SEAT_CHOICES", "Game"]
