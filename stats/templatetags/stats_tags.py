from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def line_of(page: Any, game_id: int) -> Any:
    """The page's line (game and numbers) of one game."""
    return page.line(game_id)


@register.filter
def deficit_of_winner(stats: Any) -> int:
    return int(stats.deficit(stats.winner)) if stats.winner else 0
