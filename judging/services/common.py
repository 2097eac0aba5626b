"""Checks shared by the judging services that need the game (its ruleset, its pairs).

A field's own checks (a reason's length, an entry number, a seat letter …)
are made where the input enters: ``judging.serializers``.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError
from games.models import Game
from tournament.models import Pair


def seat_check(seat: str, seats: tuple[str, ...]) -> str:
    """``seat`` is one of the table's: ``seats`` are its ruleset's (a DUO table has Y and R)."""
    if seat not in seats:
        if len(seats) == 2:
            raise ApplicationError("seat_invalid", _("Choose the player: Yellow (Y) or Red (R)."))
        raise ApplicationError("seat_invalid", _("Choose the seat: Yellow, Red, Blue or Green."))
    return seat


def pair_of_seat(game: Game, seat: str) -> Pair | None:
    return game.pair_yb if seat in ("Y", "B") else game.pair_rg
