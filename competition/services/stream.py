"""The organiser sends a table to the event's stream (the overlay follows it)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from competition.models import StreamTable
from core.errors import ApplicationError
from core.users import Actor, signed_in
from games.models import Game
from tournament.models import Tournament
from tournament.permissions import require_organiser
from tournament.services.audit import audit_record


@transaction.atomic
def stream_table_set(*, tournament: Tournament, actor: Actor, game_id: int | None) -> StreamTable:
    """Show the table of ``game_id`` on the event's stream (``None``: no table).

    Only an organiser of the event; only a table of this event. Audited.
    """
    require_organiser(actor, tournament)
    game = None
    if game_id is not None:
        game = (
            Game.objects.select_related("round")
            .filter(pk=game_id, round__tournament=tournament)
            .first()
        )
        if game is None:
            raise ApplicationError(
                "stream_table_unknown", _("This event has no such table to send to the stream.")
            )
    chosen, _created = StreamTable.objects.select_for_update().get_or_create(tournament=tournament)
    chosen.game = game
    chosen.chosen_by = signed_in(actor)
    chosen.save()
    audit_record(
        tournament=tournament,
        actor=actor,
        action="stream_table_set",
        target=game if game is not None else "",
        data={
            "game_id": game.pk if game else None,
            "round": game.round.number if game else None,
            "table": game.table_number if game else None,
        },
    )
    return chosen
