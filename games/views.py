"""Pages of the move log: the table page (token), the public live view, the hall screen.

The pages are shells: the board and the log come from the JSON API, which
the page's static JS polls (no inline script: data passes via json_script).
"""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from core.errors import ApplicationError
from core.public_cache import mark_briefly_cacheable
from core.ratelimit import short_code_lookup_allow
from core.request import query_text
from games import selectors
from games.conditional import state_etag
from games.models import Game
from games.offline import offline_manifest
from games.services.move_log import ANSWER_ENTRIES
from games.services.tokens import game_from_token, game_token, normalise_short_code
from tournament.permissions import (
    is_judge,
    round_visible,
    visible_tournament_or_404,
)


def table_code(request: HttpRequest) -> HttpResponse:
    """``/t/``: type the short table code from the score sheet."""
    code = normalise_short_code(query_text(request, "code", max_length=40))[:12]
    error = ""
    if code:
        try:
            short_code_lookup_allow(request=request)
        except ApplicationError as refused:
            context = {"code": code, "error": refused.message}
            return render(request, "games/table_code.html", context, status=refused.status_code)
        game = Game.objects.filter(short_code=code).first()
        if game is not None:
            return redirect("games:table", token=game_token(game=game))
        error = _("No table has this code. Check the code on the score sheet.")
    return render(request, "games/table_code.html", {"code": code, "error": error})


@require_GET
def table_worker(request: HttpRequest) -> HttpResponse:
    """``/t/sw.js``: the table device's service worker (scope ``/t/``, games/offline.py)."""
    manifest_json = json.dumps(offline_manifest())
    text = render_to_string("games/table_sw.js", {"manifest_json": manifest_json})
    response = HttpResponse(text, content_type="text/javascript; charset=utf-8")
    # Read afresh on every check: a deploy's new version is installed at the next visit.
    response["Cache-Control"] = "no-cache"
    return response


def table_page(request: HttpRequest, token: str) -> HttpResponse:
    """``/t/<token>/``: the table's own device logs the game here."""
    try:
        game = game_from_token(token=token, for_write=False)
    except ApplicationError as exc:
        return render(request, "games/table_invalid.html", {"error": exc}, status=403)
    writable = game.round.status != game.round.Status.CLOSED
    api = {
        name: reverse(f"api:table-{name}", kwargs={"token": token})
        for name in ("state", "entries", "preview", "take-back", "confirm", "record")
    }
    # The page lists the last entries only; its polls and the answers to its
    # writes carry those (move_log.ANSWER_ENTRIES), not the whole log.
    tail = ANSWER_ENTRIES
    api["state"] += f"?tail={tail}"
    state = selectors.game_state(game=game, entries_tail=tail).with_rulings(
        selectors.table_rulings(game=game)
    )
    config = {
        "game_id": game.pk,
        "writable": writable,
        "urls": api,
        "players": selectors.game_players(game=game),
        # The state's ETag: the device's first poll of an unchanged table is a 304.
        "state_etag": state_etag(state, legal=True, tail=tail),
        # Offline reload (docs/move-log.md): the worker that keeps this page.
        "worker_url": reverse("games:table-worker"),
        # To go on offline: the deal and the engine's refusals in the page's language.
        "rules": selectors.table_rules(
            ruleset=game.round.tournament.ruleset, lang=(get_language() or "da")[:2]
        ),
    }
    return render(
        request,
        "games/table.html",
        {
            "game": game,
            "config": config,
            "state": state.to_json(),
            "writable": writable,
            # Through the token: the clock of a game in an event that is not public is
            # not anyone's to read by its id.
            "clock_url": reverse("api:table-clock", kwargs={"token": token}),
            "players": selectors.game_players(game=game),
            "judge_url": reverse("api:table-judge", kwargs={"token": token}),
            # The ruleset's seats: a DUO table has the players Y and R only.
            "seat_names": [
                (seat, name)
                for seat, name in (
                    ("Y", _("Yellow")),
                    ("R", _("Red")),
                    ("B", _("Blue")),
                    ("G", _("Green")),
                )
                if seat in state.seats
            ],
        },
    )


def live_table(
    request: HttpRequest, slug: str, round_number: int, table_number: int
) -> HttpResponse:
    """Public read-only live view of one table.

    Spectators never need the legal moves: the page and its polls (live.js,
    conditional on the state's ETag) carry the lean state.
    """
    game = get_object_or_404(
        selectors.round_games(tournament_slug=slug, round_number=round_number),
        table_number=table_number,
    )
    if not round_visible(request.user, game.round):
        raise Http404
    tournament = game.round.tournament
    # The page shows the last entries only; so do its polls (less to send over
    # a venue's Wi-Fi every few seconds in a long game).
    state = selectors.game_state(game=game, with_legal=False, entries_tail=selectors.LIVE_TAIL)
    config = {
        "game_id": game.pk,
        "state_url": reverse("api:game-state", kwargs={"game_id": game.pk})
        + f"?tail={selectors.LIVE_TAIL}",
        "state_etag": state_etag(state, legal=False, tail=selectors.LIVE_TAIL),
        "players": selectors.game_players(game=game),
        "push_url": reverse("push", args=["table", game.pk]),
    }
    return render(
        request,
        "games/live.html",
        {
            "tournament": tournament,
            "judge": is_judge(request.user, tournament),
            "game": game,
            "config": config,
            "state": state.to_json(),
            "clock_url": reverse("api:game-clock", kwargs={"game_id": game.pk}),
            "record_url": reverse("api:game-record", kwargs={"game_id": game.pk}),
            "players": selectors.game_players(game=game),
        },
    )


def hall(request: HttpRequest, slug: str) -> HttpResponse:
    """Hall screen: every table of the current round.

    One request per poll for the whole hall: live.js reads the hall API
    (every table's progress and clock) and feeds the clocks to clock.js,
    which fetches none itself. Anonymous copies are shared for as long as
    the summary is (``HALL_CACHE_SECONDS``).
    """
    tournament = visible_tournament_or_404(request.user, slug)
    round_ = selectors.hall_round(tournament=tournament)
    # Most urgent first from the first paint (the API keeps table order).
    tables = (
        sorted(selectors.hall_tables(round_=round_), key=selectors.hall_urgency) if round_ else []
    )
    number = round_.number if round_ else None
    now = timezone.now()
    # Each table with its live view's link and its title.
    rows = [
        (
            table,
            reverse("games:live", args=[tournament.slug, number, table.table]),
            _("Table %(n)s") % {"n": table.table},
        )
        for table in tables
    ]
    response = render(
        request,
        "games/hall.html",
        {
            "tournament": tournament,
            "round": round_,
            "tables": rows,
            "config": {
                "hall_url": reverse("api:tournament-hall", kwargs={"slug": slug}),
                "push_url": reverse("push", args=["event", slug]),
                "round": round_.number if round_ else None,
            },
        },
    )
    return mark_briefly_cacheable(
        request,
        response,
        published=tournament.published,
        seconds=selectors.HALL_CACHE_SECONDS,
        now=now,
    )
