"""Small checks shared by the judging services."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError
from core.request import parse_int, parse_optional_int
from games.models import MAX_ENTRY_NUMBER

MAX_REASON_LENGTH = 1000
# Database ids are 64-bit; a request never names a larger one.
MAX_ID = 2**63 - 1
# Search boxes of the rulings and incident pages.
SEARCH_LENGTH = 200
RULE_ID_LENGTH = 4


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


def word_clean(value: Any, *, field: str, limit: int = 60) -> str:
    """A short text field of a ruling (a pawn, a forced move); absent is empty."""
    if value in (None, ""):
        return ""
    if not isinstance(value, str) or len(value) > limit:
        raise ApplicationError(
            f"{field}_invalid",
            f"{field} must be a short text (at most {limit} characters).",
            f"{field} skal være en kort tekst (højst {limit} tegn).",
        )
    return value


def seat_clean(seat: Any, seats: tuple[str, ...] = ("Y", "R", "B", "G")) -> str:
    """A seat of the table: ``seats`` are the ruleset's (a DUO table has Y and R)."""
    if seat not in seats:
        if len(seats) == 2:
            raise ApplicationError("seat_invalid", _("Choose the player: Yellow (Y) or Red (R)."))
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
    """An entry number of the log, from JSON or a form field."""
    return parse_int(
        value,
        field="seq",
        minimum=1,
        maximum=MAX_ENTRY_NUMBER,
        error=ApplicationError(
            "entry_invalid",
            f"Name the {name} by its number in the log.",
            "Angiv postens nummer i loggen.",
        ),
    )


def call_id_clean(value: Any) -> int | None:
    """The id of the judge call a ruling answers, if any (JSON or a form field)."""
    return parse_optional_int(
        value,
        field="call",
        minimum=1,
        maximum=MAX_ID,
        error=ApplicationError(
            "call_invalid", "Name the judge call by its number.", "Angiv tilkaldet ved dets nummer."
        ),
    )


def pair_of_seat(game: Any, seat: str) -> Any:
    return game.pair_yb if seat in ("Y", "B") else game.pair_rg
