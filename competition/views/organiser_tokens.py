"""Organiser action: replace a table's link and code (a lost or leaked score sheet)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from competition.views.organiser_rounds import get_game
from games.services.tokens import game_token_rotate
from tournament.models import Tournament
from tournament.views.common import organiser_post


@organiser_post
def game_token_rotate_view(
    request: HttpRequest, tournament: Tournament, game_id: int
) -> HttpResponse:
    """POST only (CSRF): the old QR link and short code stop working at once."""
    game = get_game(tournament, game_id)
    game_token_rotate(game=game)
    messages.success(
        request,
        _("Table %(table)d has a new link and code; print its score sheet again.")
        % {"table": game.table_number},
    )
    url = reverse(
        "tournament:organiser_round", kwargs={"slug": tournament.slug, "number": game.round.number}
    )
    return redirect(f"{url}#table-{game.table_number}")
