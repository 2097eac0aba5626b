"""DUO game records: reading one, replaying it, and seeded self-play (D1, NOTATION.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..boardstate import Event
from ..errors import EngineError
from ..ruleset import Ruleset
from .board import PLAYERS, syntax_error
from .game import DuoGame, EventTuple, duo_events, events_json
from .position import DuoPosition
from .rules import generate


@dataclass(frozen=True)
class DuoReplay:
    """Outcome of :func:`replay` (the NOTATION.md replay answer via :meth:`to_json`)."""

    ok: bool
    moves_checked: int
    position: DuoPosition
    winner: str | None
    first_error: dict[str, Any] | None
    events: list[list[dict[str, str]]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "moves_checked": self.moves_checked,
            "position": self.position.to_json(),
            "winner": self.winner,
            "first_error": self.first_error,
        }


def read_duo_record(record: Mapping[str, Any], ruleset: Ruleset) -> tuple[DuoGame, list[Any]]:
    """Validate a DUO record's frame and set up its game; raises NotationError/PositionError."""
    if not isinstance(record, Mapping):
        raise syntax_error(
            "game record", "a game record is a JSON object", "et spil er et JSON-objekt"
        )
    dealer = record.get("first_dealer")
    if dealer not in PLAYERS:
        raise syntax_error("game record", "'first_dealer' is Y or R", "'first_dealer' er Y eller R")
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise syntax_error("game record", "'moves' must be a list", "'moves' skal være en liste")
    start = record.get("start")
    position = None if start is None else DuoPosition.from_json(start, ruleset.board_fields)
    return DuoGame(ruleset, PLAYERS.index(dealer), position), moves


def run_record(
    record: Mapping[str, Any], ruleset: Ruleset
) -> tuple[DuoGame, list[list[Event]], dict[str, Any] | None]:
    """Play a DUO record entry by entry: the game after the accepted entries,
    their events, and the first refused entry (``{"index", "move", "rule",
    "message", "message_da"}``) or None."""
    game, rows, error = _run(record, ruleset)
    return game, [duo_events(game.lay, row) if row else [] for row in rows], error


def _run(
    record: Mapping[str, Any], ruleset: Ruleset
) -> tuple[DuoGame, list[list[EventTuple]], dict[str, Any] | None]:
    """:func:`run_record` with the internal event tuples, for each caller to
    turn into its own event form."""
    game, moves = read_duo_record(record, ruleset)
    rows: list[list[EventTuple]] = []
    entry = game.entry
    for index, text in enumerate(moves):
        try:
            rows.append(entry(text, moves, index))
        except EngineError as e:
            return (
                game,
                rows,
                {
                    "index": index,
                    "move": str(text),
                    "rule": e.rule,
                    "message": e.message_en,
                    "message_da": e.message_da,
                },
            )
    return game, rows, None


def replay(record: Mapping[str, Any], ruleset: Ruleset) -> DuoReplay:
    """Check a DUO game record; the first illegal entry is reported, not raised."""
    game, rows, error = _run(record, ruleset)
    return DuoReplay(
        ok=error is None,
        moves_checked=len(rows),
        position=DuoPosition(game.board.locs, game.lay.fields),
        winner=game.winner,
        first_error=error,
        events=[events_json(game.lay, row) if row else [] for row in rows],
    )


def selfplay_game(
    seed: int,
    ruleset: Ruleset,
    first_dealer: str | None = None,
    observe: Callable[[tuple[int, ...], int, tuple[str, ...]], None] | None = None,
) -> dict[str, Any]:
    """A complete random legal DUO game as a game record (cards really dealt, D1).

    ``observe(locs, player, hand)`` is called before each turn (benchmarks).
    """
    rng = random.Random(seed)
    dealer = first_dealer or rng.choice(PLAYERS)
    game = DuoGame(ruleset, PLAYERS.index(dealer), None)
    full = [c for c, n in ruleset.deck for _ in range(n)]
    deck: list[str] = []
    hands: list[list[str]] = [[], []]
    key = (-1, -1)
    entries: list[str] = []
    while game.winner is None:
        if (game.dealer, game.deal_number) != key:
            key = (game.dealer, game.deal_number)
            if game.deal_number == 1:
                deck = full[:]
                rng.shuffle(deck)
            hands = [[deck.pop() for _ in range(game.hands[s])] for s in (0, 1)]
            gifts = [hand.pop(rng.randrange(len(hand))) for hand in hands]
            hands[0].append(gifts[1])
            hands[1].append(gifts[0])
        s = game.to_move
        if observe is not None:
            observe(tuple(game.board.locs), s, tuple(hands[s]))
        order = list(dict.fromkeys(hands[s]))
        rng.shuffle(order)
        chosen = None
        for card in order:
            moves = generate(game.board, s, card)
            if moves:
                locks = [m for m in moves if "M" in m.text or " in " in m.text]
                pool = locks if locks and rng.random() < 0.5 else moves
                chosen = pool[rng.randrange(len(pool))]
                break
        if chosen is None:
            text = f"{PLAYERS[s]} X: " + " ".join(hands[s])
            hands[s] = []
        else:
            text = f"{PLAYERS[s]} {chosen}"
            hands[s].remove(chosen.card)
        game.entry(text)
        entries.append(text)
        if len(entries) > 20_000:  # pragma: no cover - a safety net
            raise RuntimeError(f"DUO self-play seed {seed} did not finish")
    return {
        "ruleset": ruleset.name,
        "first_dealer": dealer,
        "players": {"Y": "Bot Y", "R": "Bot R"},
        "moves": entries,
    }
