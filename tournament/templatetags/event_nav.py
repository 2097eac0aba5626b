"""The event bar: on every page of an event, the way back to its public page
and, for its staff, to the organiser's and the judge's dashboards."""

from __future__ import annotations

from typing import Any

from django import template

from tournament.models import Tournament
from tournament.permissions import is_judge, is_organiser

register = template.Library()


@register.inclusion_tag("tournament/_event_bar.html", takes_context=True)
def event_bar(context: template.Context, tournament: Tournament) -> dict[str, Any]:
    user = context.get("user")
    request = context.get("request")
    path = request.path if request is not None else ""
    return {
        "tournament": tournament,
        "organiser": is_organiser(user, tournament),
        "judge": is_judge(user, tournament),
        "path": path,
    }
