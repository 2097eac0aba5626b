"""The event's stream overlay (a streaming tool's browser source) and the
organiser's "send to stream" action.

The overlay page is drawn once; it then polls its small feed
(``stream_overlay``), which names the table on the stream and its state, so
the organiser switches tables without the stream reloading anything.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from competition.forms import StreamTableForm
from competition.selectors_stream import stream_overlay
from competition.services.stream import stream_table_set
from core.request import query_choice
from tournament.models import Tournament
from tournament.permissions import visible_tournament_or_404
from tournament.views.common import call_service, organiser_post

# ?bg=: the page's background for the streaming tool: transparent (a browser
# source keeps what is behind it), or a chroma-key colour to key out.
BACKGROUNDS = ("transparent", "green", "blue", "magenta")
# How often the overlay asks which table is on the stream and how it stands.
POLL_MS = 2000


@require_GET
def stream_overlay_page(request: HttpRequest, slug: str) -> HttpResponse:
    """``/tournaments/<slug>/stream/?bg=green``: 1920×1080, for a browser source."""
    tournament = visible_tournament_or_404(request.user, slug)
    background = query_choice(request, "bg", BACKGROUNDS, BACKGROUNDS[0])
    config = {
        "feed_url": reverse("tournament:stream_feed", kwargs={"slug": slug}),
        "interval_ms": POLL_MS,
        "ruleset": tournament.ruleset,
        # The ruleset's facts the overlay draws and names by (games.engine.VARIANTS).
        "singles": tournament.variant.singles,
        "board": tournament.variant.board,
    }
    return render(
        request,
        "tournament/stream_overlay.html",
        {
            "tournament": tournament,
            "background": background,
            "config": config,
            "overlay": stream_overlay(tournament=tournament),
        },
    )


@require_GET
def stream_overlay_feed(request: HttpRequest, slug: str) -> JsonResponse:
    """The table on the stream and its state (``{"game": null}`` when none may be shown)."""
    tournament = visible_tournament_or_404(request.user, slug)
    response = JsonResponse(stream_overlay(tournament=tournament))
    response["Cache-Control"] = "no-cache"
    return response


@organiser_post
def organiser_stream_table(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Send a table to the stream (``game``: its id; empty: none)."""
    # The round page to go back to, read before anything is written.
    form = StreamTableForm(request.POST)
    back = form.back()
    # Empty: no table on the stream; not a number: refused with the field's message.
    call_service(
        request,
        lambda: stream_table_set(tournament=tournament, actor=request.user, game_id=form.game_id()),
        _("The stream shows the chosen table.")
        if form.chosen()
        else _("The stream shows no table."),
    )
    if back is not None:
        return redirect("tournament:organiser_round", slug=tournament.slug, number=back)
    return redirect("tournament:organiser_dashboard", slug=tournament.slug)
