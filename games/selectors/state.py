"""Reads of a table's state: what a table page, a live view and an offline device show."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.engine import COLOUR_DA, COLOUR_EN, ERROR_MESSAGES, get_ruleset
from games.models import Game, ResultConfirmation
from games.selectors.log import LogView, game_log, locked_by_seat, short_hash
from games.signals import table_rulings_wanted


def game_state(
    *,
    game: Game,
    with_entries: bool = True,
    with_legal: bool = True,
    entries_tail: int = 0,
    view: LogView | None = None,
) -> dict[str, Any]:
    """Everything a table page or live view shows, derived from the log.

    ``with_legal=False`` leaves out the legal moves (``legal_entries`` is
    then null: read the state to get them); ``entries_tail`` limits the
    entries to the last N. A caller that has just built the log's view
    (a write, under the game's lock) passes it as ``view``.
    """
    if view is None:
        view = game_log(game=game)
    state = view.replay.state
    # Confirmations exist only while the log has a winner (a take-back of the
    # winning entry deletes them), so a game in play needs no query for them.
    confirmed = (
        set(ResultConfirmation.objects.filter(game=game).values_list("pair_side", flat=True))
        if view.winner
        else set()
    )
    error = view.replay.first_error
    rules = state.ruleset
    data: dict[str, Any] = {
        "game_id": game.pk,
        "tournament": game.round.tournament.slug,
        "round": game.round.number,
        "table": game.table_number,
        "status": game.status,
        "ruleset": game.round.tournament.ruleset,
        "first_dealer": game.first_dealer,
        # Who sits at the table: Y R B G, or the DUO players Y and R (docs/api.md).
        "seats": list(rules.seats),
        "teams": {team: list(seats) for team, seats in rules.teams.items()},
        "seq": view.seq,
        "last_hash": view.last_hash,
        "short_hash": short_hash(view.last_hash),
        "position": view.replay.position.to_json(),
        "locked": locked_by_seat(view),
        "to_move": state.to_move,
        "dealer": state.dealer,
        "hand_sizes": dict(state.hand_sizes),
        # The deal as far as the device needs it to go on offline (RULES D1, D5, D6).
        "deal_number": state.deal_number,
        "penalised": list(state.penalised),
        "cards_seen": dict(state.cards_seen),
        "winner": view.winner,
        "distance": view.distance,
        "legal_entries": view.legal_entries if with_legal else None,
        "legal_effects": view.legal_effects if with_legal else None,
        "confirmations": {"YB": "YB" in confirmed, "RG": "RG" in confirmed},
        "result": {
            "winner": game.winner or None,
            "source": game.result_source or None,
            "finished": game.status == Game.Status.FINISHED,
        },
        "log_error": None if error is None else error.to_json(),
        "server_time": timezone.now().isoformat(),
    }
    if with_entries:
        data["entries"] = list(view.entries[-entries_tail:] if entries_tail else view.entries)
    return data


def table_rulings(*, game: Game) -> list[dict[str, Any]]:
    """The judge's latest rulings on ``game`` the table device tells its players
    of (a void, undo, correction, penalty or warning: its kind, reason and the
    judge's name), newest last, as the judging app answers
    ``table_rulings_wanted`` (games sits below judging and cannot read it)."""
    rulings: list[dict[str, Any]] = []
    for _receiver, answer in table_rulings_wanted.send(sender=Game, game=game):
        if isinstance(answer, list):
            rulings.extend(answer)
    return rulings


OFFLINE_MIRRORED_RULESET = "dm2023"
"""The ruleset static/js/table/rules.js plays offline (its MIRRORED_RULESET)."""


def table_rules(*, ruleset: str, lang: str) -> dict[str, Any]:
    """What the table device needs to play entries on its own while offline.

    The ruleset's deal (hand sizes, deals per dealer, copies of each card:
    RULES D1, D5, D6) and the engine's refusal messages in ``lang`` with the
    colour names they use, so a refusal shown offline has the engine's words
    (static/js/table/rules.js).
    """
    rules = get_ruleset(ruleset)
    column = 2 if lang == "da" else 1
    return {
        "ruleset": rules.name,
        # static/js/table/rules.js mirrors dm2023 only; other rulesets are checked online.
        "offline_mirror": rules.name == OFFLINE_MIRRORED_RULESET,
        "hand_size": rules.hand_size,
        "penalty_hand_size": rules.penalty_hand_size,
        "deals_per_dealer": rules.deals_per_dealer,
        "cards": list(rules.deck_cards()),
        "copies": {card: rules.copies(card) for card in rules.deck_cards()},
        "messages": {key: [row[0], row[column]] for key, row in ERROR_MESSAGES.items()},
        "colours": {"en": dict(COLOUR_EN), "da": dict(COLOUR_DA)},
    }
