"""CSV exports: the organiser's sign-up list (with contact emails)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils import timezone

from signup.models import SignUp

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """Text a spreadsheet would run as a formula ("=HYPERLINK(…)") is written as text."""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def write_signups_csv(writer: Any, signups: Iterable[SignUp]) -> None:
    """Rows for ``csv.writer``; ``signups`` from ``signups_for_organiser``."""
    writer.writerow(
        [
            "status",
            "waitlist",
            "start_number",
            "pair_name",
            "player_1",
            "player_2",
            "club",
            "email",
            "signed_up",
        ]
    )
    for signup in signups:
        writer.writerow(
            [
                spreadsheet_safe(cell)
                for cell in (
                    signup.status,
                    signup.position or "",  # type: ignore[attr-defined]
                    signup.pair.start_number if signup.pair else "",
                    signup.pair_name,
                    signup.player_1,
                    signup.player_2,
                    signup.club,
                    signup.email,
                    timezone.localtime(signup.created_at).strftime("%Y-%m-%d %H:%M"),
                )
            ]
        )
