"""The push channels and who may read each: the same rules as the pages they belong to.

- ``/push/table/<game id>/`` (``table:<game id>``), a table's live view: whoever
  sees its round (``round_visible``);
- ``/push/event/<slug>/`` (``event:<tournament id>``), the hall screen and the
  public pages: whoever sees the event (``tournament_visible``);
- ``/push/judging/<slug>/`` (``judging:<tournament id>``), the judge dashboard:
  the event's judges and organisers (``is_judge``).

A channel carries only that something changed; the page then fetches what
it shows through its own visibility-checked address (docs/push.md).
"""

from __future__ import annotations

from django.urls import reverse

from core.push.stream import Authorise
from core.users import Actor
from games.models import Game
from tournament.models import Tournament
from tournament.permissions import is_judge, round_visible, tournament_visible


def table_channel(key: str, visitor: Actor) -> str | None:
    if not key.isdigit():
        return None
    game = Game.objects.select_related("round__tournament").filter(pk=int(key)).first()
    if game is None or not round_visible(visitor, game.round):
        return None
    return f"table:{game.pk}"


def _tournament(slug: str) -> Tournament | None:
    return Tournament.objects.filter(slug=slug).first()


def event_channel(key: str, visitor: Actor) -> str | None:
    tournament = _tournament(key)
    if tournament is None or not tournament_visible(visitor, tournament):
        return None
    return f"event:{tournament.pk}"


def judging_channel(key: str, visitor: Actor) -> str | None:
    tournament = _tournament(key)
    if tournament is None or not is_judge(visitor, tournament):
        return None
    return f"judging:{tournament.pk}"


CHANNELS: dict[str, Authorise] = {
    "table": table_channel,
    "event": event_channel,
    "judging": judging_channel,
}


def push_url(kind: str, key: object) -> str:
    """The address a page opens its EventSource on."""
    return reverse("push", args=[kind, str(key)])
