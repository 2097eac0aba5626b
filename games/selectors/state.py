"""Reads of a table's state: what a table page, a live view and an offline device show."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.utils import timezone

from games.engine import COLOUR_DA, COLOUR_EN, ERROR_MESSAGES, get_ruleset
from games.models import Game, ResultConfirmation
from games.selectors.log import LogEntry, LogView, game_log, locked_by_seat, short_hash
from games.signals import table_rulings_wanted


@dataclass(frozen=True)
class GameResult:
    """The result the game row holds: by the log, an adjudication or a ruling."""

    winner: str | None
    source: str | None
    finished: bool

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "source": self.source, "finished": self.finished}


@dataclass(frozen=True)
class TableRuling:
    """A judge's ruling on a table as its device tells the players (``table_rulings``):
    its kind, the judge's reason and name, the judge entries it wrote and when."""

    id: int
    kind: str
    reason: str
    judge: str
    log: list[str]
    at: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "reason": self.reason,
            "judge": self.judge,
            "log": self.log,
            "at": self.at,
        }


@dataclass(frozen=True)
class TableState:
    """A table's state as ``game_state`` reads it from the log (docs/api.md).

    ``entries`` is None when left out (``with_entries=False``); ``legal_entries``
    and ``legal_effects`` are None when the legal moves were not asked for.
    ``rulings`` is the judge's latest rulings on the table, which only the
    table's own answer carries (``with_rulings``). ``to_json`` is the API's
    answer (``games.serializers.GameStateSerializer`` describes it), in the
    fields' order.
    """

    game_id: int
    tournament: str
    round: int
    table: int
    status: str
    ruleset: str
    first_dealer: str
    # Who sits at the table: Y R B G, or the DUO players Y and R (docs/api.md).
    seats: list[str]
    teams: dict[str, list[str]]
    seq: int
    last_hash: str
    short_hash: str
    position: dict[str, list[str]]
    locked: dict[str, list[str]]
    to_move: str | None
    dealer: str
    hand_sizes: dict[str, int]
    # The deal as far as the device needs it to go on offline (RULES D1, D5, D6).
    deal_number: int
    penalised: list[str]
    cards_seen: dict[str, int]
    winner: str | None
    distance: dict[str, int]
    legal_entries: dict[str, list[str]] | None
    legal_effects: dict[str, Any] | None
    confirmations: dict[str, bool]
    result: GameResult
    log_error: dict[str, Any] | None
    server_time: str
    entries: tuple[LogEntry, ...] | None = None
    rulings: list[TableRuling] | None = None

    def with_rulings(self, rulings: list[TableRuling]) -> TableState:
        """This state with the judge's rulings the table device shows."""
        return replace(self, rulings=rulings)

    def to_json(self) -> dict[str, Any]:
        """The state as the API answers it (``entries`` and ``rulings`` only when held)."""
        data: dict[str, Any] = {
            "game_id": self.game_id,
            "tournament": self.tournament,
            "round": self.round,
            "table": self.table,
            "status": self.status,
            "ruleset": self.ruleset,
            "first_dealer": self.first_dealer,
            "seats": self.seats,
            "teams": self.teams,
            "seq": self.seq,
            "last_hash": self.last_hash,
            "short_hash": self.short_hash,
            "position": self.position,
            "locked": self.locked,
            "to_move": self.to_move,
            "dealer": self.dealer,
            "hand_sizes": self.hand_sizes,
            "deal_number": self.deal_number,
            "penalised": self.penalised,
            "cards_seen": self.cards_seen,
            "winner": self.winner,
            "distance": self.distance,
            "legal_entries": self.legal_entries,
            "legal_effects": self.legal_effects,
            "confirmations": self.confirmations,
            "result": self.result.to_json(),
            "log_error": self.log_error,
            "server_time": self.server_time,
        }
        if self.entries is not None:
            data["entries"] = [entry.to_json() for entry in self.entries]
        if self.rulings is not None:
            data["rulings"] = [ruling.to_json() for ruling in self.rulings]
        return data


def game_state(
    *,
    game: Game,
    with_entries: bool = True,
    with_legal: bool = True,
    entries_tail: int = 0,
    view: LogView | None = None,
) -> TableState:
    """Everything a table page or live view shows, derived from the log.

    ``with_legal=False`` leaves out the legal moves (``legal_entries`` is
    then None: read the state to get them); ``entries_tail`` limits the
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
    entries = view.entries_tail(entries_tail) if with_entries else None
    return TableState(
        game_id=game.pk,
        tournament=game.round.tournament.slug,
        round=game.round.number,
        table=game.table_number,
        status=game.status,
        ruleset=game.round.tournament.ruleset,
        first_dealer=game.first_dealer,
        seats=list(rules.seats),
        teams={team: list(seats) for team, seats in rules.teams.items()},
        seq=view.seq,
        last_hash=view.last_hash,
        short_hash=short_hash(view.last_hash),
        position=view.replay.position.to_json(),
        locked=locked_by_seat(view),
        to_move=state.to_move,
        dealer=state.dealer,
        hand_sizes=dict(state.hand_sizes),
        deal_number=state.deal_number,
        penalised=list(state.penalised),
        cards_seen=dict(state.cards_seen),
        winner=view.winner,
        distance=view.distance,
        legal_entries=view.legal_entries if with_legal else None,
        legal_effects=view.legal_effects if with_legal else None,
        confirmations={"YB": "YB" in confirmed, "RG": "RG" in confirmed},
        result=GameResult(
            winner=game.winner or None,
            source=game.result_source or None,
            finished=game.status == Game.Status.FINISHED,
        ),
        log_error=None if error is None else error.to_json(),
        server_time=timezone.now().isoformat(),
        entries=entries,
    )


def table_rulings(*, game: Game) -> list[TableRuling]:
    """The judge's latest rulings on ``game`` the table device tells its players
    of (a void, undo, correction, penalty or warning: its kind, reason and the
    judge's name), newest last, as the judging app answers
    ``table_rulings_wanted`` (games sits below judging and cannot read it)."""
    rulings: list[TableRuling] = []
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
