"""Small checks shared by the judging services."""

from __future__ import annotations

from typing import Any

from tournament.errors import ApplicationError

MAX_REASON_LENGTH = 1000


def reason_clean(reason: Any, *, required: bool = True, limit: int = MAX_REASON_LENGTH) -> str:
    """A stripped reason; a ruling always needs one (who, when and *why*)."""
    text = reason.strip() if isinstance(reason, str) else ""
    if required and not text:
        raise ApplicationError(
            "reason_required",
            "Write the reason for the ruling.",
            "Skriv begrundelsen for kendelsen.",
        )
    if len(text) > limit:
        raise ApplicationError(
            "reason_too_long",
            f"The reason may be at most {limit} characters.",
            f"Begrundelsen må højst være {limit} tegn.",
        )
    return text


def seat_clean(seat: Any) -> str:
    if seat not in ("Y", "R", "B", "G"):
        raise ApplicationError(
            "seat_invalid",
            "Choose the seat: Yellow, Red, Blue or Green.",
            "Vælg pladsen: gul, rød, blå eller grøn.",
        )
    return str(seat)


def team_clean(team: Any) -> str:
    if team not in ("YB", "RG"):
        raise ApplicationError(
            "winner_invalid",
            "The winner is Yellow/Blue (YB) or Red/Green (RG).",
            "Vinderen er gul/blå (YB) eller rød/grøn (RG).",
        )
    return str(team)


def seq_clean(value: Any, *, name: str = "entry") -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ApplicationError(
            "entry_invalid",
            f"Name the {name} by its number in the log.",
            "Angiv postens nummer i loggen.",
        )
    return value


def pair_of_seat(game: Any, seat: str) -> Any:
    return game.pair_yb if seat in ("Y", "B") else game.pair_rg
