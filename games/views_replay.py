"""The public replay of a finished game: every position of its log, step by step.

Public exactly where the live view is (a published event's public round;
its organisers and judges also see draft rounds), and only once the game is
finished. One of the event's own pages: its players and pairs are named as
the live view and the pairings name them, as the event published them
(``games.selectors.game_players``, ``Pair.display_name``;
``people.selectors_public`` says why).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from core.request import int_or_none, query_text
from games import selectors
from games.models import MAX_ENTRY_NUMBER, Game
from games.selectors.replay import game_replay, replay_rulings_placed
from tournament.permissions import round_visible

SEAT_NAMES = (("Y", "Yellow"), ("R", "Red"), ("B", "Blue"), ("G", "Green"))


def _ply(request: HttpRequest, last: int) -> int:
    """``?ply=N`` held to the game (a link past its end shows the end); the end when
    absent or not a number, as an old or mistyped link should land somewhere."""
    text = query_text(request, "ply", max_length=12)
    ply = int_or_none(text.strip(), minimum=-MAX_ENTRY_NUMBER, maximum=MAX_ENTRY_NUMBER)
    return last if ply is None else min(max(ply, 0), last)


def _replayable_game(request: HttpRequest, slug: str, round_number: int, table_number: int) -> Game:
    game = get_object_or_404(
        selectors.round_games(tournament_slug=slug, round_number=round_number).select_related(
            "pair_yb__player_1", "pair_yb__player_2", "pair_rg__player_1", "pair_rg__player_2"
        ),
        table_number=table_number,
    )
    if not round_visible(request.user, game.round) or game.status != Game.Status.FINISHED:
        raise Http404
    return game


@require_GET
def game_replay_page(
    request: HttpRequest, slug: str, round_number: int, table_number: int
) -> HttpResponse:
    """``…/tables/<t>/replay/?ply=N``: the game at entry N (0 = the start; the end by default)."""
    game = _replayable_game(request, slug, round_number, table_number)
    tournament = game.round.tournament
    replay = game_replay(game=game)
    rulings = replay_rulings_placed(game=game, frames=replay.frames)
    # What the page's script reads, embedded as JSON.
    config = {
        "ruleset": tournament.ruleset,
        # In singles (DUO) a side is one player, named by its colour.
        "singles": tournament.variant.singles,
        **replay.to_json(),
        "rulings": rulings.to_json(),
        "players": selectors.game_players(game=game),
        "ply": _ply(request, replay.last_ply),
    }
    return render(
        request,
        "games/replay.html",
        {
            "tournament": tournament,
            "game": game,
            "config": config,
            "replay": replay,
            "rulings": rulings,
            "pair_yb": game.pair_yb.display_name,
            "pair_rg": game.pair_rg.display_name,
            "last_ply": replay.last_ply,
            "record_url": reverse("games:replay-record", args=[slug, round_number, table_number]),
            "live_url": reverse("games:live", args=[slug, round_number, table_number]),
            "seat_names": [
                (seat, _(name)) for seat, name in SEAT_NAMES if seat in config["players"]
            ],
        },
    )


@require_GET
def game_replay_record(
    request: HttpRequest, slug: str, round_number: int, table_number: int
) -> JsonResponse:
    """The game as a NOTATION.md game record (the export's form), named as the page names them."""
    game = _replayable_game(request, slug, round_number, table_number)
    moves = list(selectors.active_entries(game=game).values_list("text", flat=True))
    players = selectors.game_players(game=game)
    record = selectors.game_record(game=game, moves=moves, players=players)
    response = JsonResponse(record, json_dumps_params={"ensure_ascii": False, "indent": 1})
    filename = f"{slug}-r{round_number}-t{table_number}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
