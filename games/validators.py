"""A typed result's own field checks, shared by the API's serializer and the page's form.

The checks that depend on the event stay in ``games.services.results``: a
side's pawns (8 for a pair, 6 for a DUO player) and the W1/W3 consistency
of winner, locked pawns and distances.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games.engine import VARIANTS

# The most pawns a side brings to the board in any ruleset (a pair's 8, RULES S2).
PAWNS_PER_TEAM = max(variant.pawns_per_side for variant in VARIANTS.values())
# RULES W3: start circle = 61 steps for each of a team's pawns.
MAX_DISTANCE = PAWNS_PER_TEAM * 61
MAX_NOTE = 500


class ResultNumber:
    """A whole number of a result from 0 to ``high`` (``result_value_invalid``)."""

    def __init__(self, field: str, high: int) -> None:
        self.field, self.high = field, high

    def __call__(self, value: int) -> None:
        if not 0 <= value <= self.high:
            raise ValidationError(
                _("%(name)s must be a whole number from 0 to %(high)s."),
                code="result_value_invalid",
                params={"name": self.field, "high": self.high},
            )


RESULT_HIGH = {
    "locked_yb": PAWNS_PER_TEAM,
    "locked_rg": PAWNS_PER_TEAM,
    "distance_yb": MAX_DISTANCE,
    "distance_rg": MAX_DISTANCE,
}
RESULT_VALIDATORS = {name: [ResultNumber(name, high)] for name, high in RESULT_HIGH.items()}
