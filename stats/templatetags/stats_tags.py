from __future__ import annotations

from typing import Any

from django import template
from django.template.defaultfilters import floatformat

register = template.Library()


@register.filter
def line_of(page: Any, game_id: int) -> Any:
    """The page's line (game and numbers) of one game."""
    return page.line(game_id)


@register.filter
def deficit_of_winner(stats: Any) -> int:
    return int(stats.deficit(stats.winner)) if stats.winner else 0


@register.filter
def rounded(value: float | None) -> str:
    """A time figure rounded sensibly: one decimal under ten, whole numbers above;
    "—" when there are no times."""
    if value is None:
        return "—"
    return floatformat(value, 1 if value < 10 else 0)
