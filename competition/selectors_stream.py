"""What the stream overlay shows: the table the organiser sent to the stream.

Only what is public: a table of a published event's public round (the live
view's rule, ``tournament.permissions.public_round_q``), its players and
pairs named as the live view and the pairings name them, as the event
published them (``games.selectors.game_players``, ``Pair.display_name``):
the overlay is the event's own page. Otherwise the overlay shows no table.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from competition.models import StreamTable
from games.engine import get_ruleset, initial_position, remaining_distance
from games.models import Game
from games.selectors import game_players, game_state
from games.selectors.clock import CLOCK_STATUS_LABELS, clock_state
from tournament.models import Tournament
from tournament.permissions import public_round_q

# The last entries the overlay writes out in words.
STREAM_ENTRIES = 5


def stream_game(*, tournament: Tournament) -> Game | None:
    """The game on the event's stream, if it may be shown publicly."""
    game_id = stream_game_id(tournament=tournament)
    if game_id is None:
        return None
    return (
        Game.objects.filter(public_round_q("round__"), pk=game_id, round__tournament=tournament)
        .select_related(
            "round__tournament",
            "clock",
            "pair_yb__player_1",
            "pair_yb__player_2",
            "pair_rg__player_1",
            "pair_rg__player_2",
        )
        .prefetch_related("clock__events")
        .first()
    )


def stream_overlay(*, tournament: Tournament) -> dict[str, Any]:
    """The overlay's one answer: ``{"game": None}`` or the table as the stream shows it."""
    game = stream_game(tournament=tournament)
    if game is None:
        return {"game": None, "server_time": timezone.now().isoformat()}
    state = game_state(game=game, with_legal=False, entries_tail=STREAM_ENTRIES)
    clock = clock_state(game=game)
    ruleset = get_ruleset(state.ruleset)
    return {
        "game": game.pk,
        "round": game.round.number,
        "table": game.table_number,
        "ruleset": state.ruleset,
        "seats": state.seats,
        "seq": state.seq,
        "position": state.position,
        "locked": state.locked,
        "to_move": state.to_move,
        "winner": state.winner,
        "distance": state.distance,
        # A side's distance with every pawn at home: the bars count down from it.
        "distance_full": remaining_distance(initial_position(ruleset), ruleset)["teams"]["YB"],
        "entries": [
            {"seq": e.seq, "text": e.text, "events": e.events} for e in state.entries or ()
        ],
        "players": game_players(game=game),
        "pairs": {"YB": game.pair_yb.display_name, "RG": game.pair_rg.display_name},
        "clock": {**clock.to_json(), "status_label": str(CLOCK_STATUS_LABELS[clock.status])},
        "server_time": clock.server_time,
    }


def stream_game_id(*, tournament: Tournament) -> int | None:
    """The game the organiser sent to the stream (public or not: the organiser's own view)."""
    return (
        StreamTable.objects.filter(tournament=tournament).values_list("game_id", flat=True).first()
    )
