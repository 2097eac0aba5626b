"""DUO games: the public functions, deals and turns, replay and self-play (D1–D6, W1, W2)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import IllegalMoveError, NotationError
from ..ruleset import Ruleset
from .board import (
    AREAS,
    PAWNS,
    PLAYER_DA,
    PLAYER_EN,
    PLAYERS,
    STEPS,
    DuoBoard,
    Layout,
    illegal,
    layout,
    syntax_error,
)
from .moves import DuoMove, parse_move
from .position import DuoPosition
from .rules import execute, generate

# --- public functions ---------------------------------------------------------------


def _player(seat: str) -> int:
    if seat not in PLAYERS:
        raise syntax_error(seat, "the DUO players are Y and R", "DUO-spillerne er Y og R")
    return PLAYERS.index(seat)


def legal_moves(position: DuoPosition, seat: str, card: str) -> list[DuoMove]:
    """Every legal move of ``card`` for player ``seat`` (``"Y"``/``"R"``), canonical order."""
    s = _player(seat)
    if card not in STEPS and card != "4":
        raise syntax_error(card, "DUO cards are 1–10 and 12", "DUO-kortene er 1–10 og 12")
    if position.winner() is not None:
        return []
    return generate(DuoBoard(position.locs, layout(position.fields)), s, card)


@dataclass(frozen=True)
class DuoApplied:
    """Result of :func:`apply_move`."""

    position: DuoPosition
    events: list[dict[str, str]]


def _events_json(lay: Layout, events: list[tuple[str, int, int]]) -> list[dict[str, str]]:
    return [{"type": t, "colour": AREAS[a], "at": lay.codes[lid]} for t, a, lid in events]


def apply_move(position: DuoPosition, seat: str, move: DuoMove | str) -> DuoApplied:
    """Play a move (or check a discard ``X: …`` by G3) for player ``seat``."""
    s = _player(seat)
    lay = layout(position.fields)
    if position.winner() is not None:
        raise IllegalMoveError.of("w1", team=position.winner())
    b = DuoBoard(position.locs, lay)
    if isinstance(move, str) and move.strip().startswith("X:"):
        cards = _discard_cards(move.strip())
        for card in dict.fromkeys(cards):
            found = generate(b, s, card, first=True)
            if found:
                raise _discard_refused(seat, card, str(found[0]))
        return DuoApplied(position, [])
    m = parse_move(move, position.fields) if isinstance(move, str) else move
    events = execute(b, s, m)
    return DuoApplied(DuoPosition(b.locs, position.fields), _events_json(lay, events))


def _discard_cards(text: str) -> tuple[str, ...]:
    cards = tuple(text.split()[1:])
    if not cards or any(c not in STEPS and c != "4" for c in cards):
        raise syntax_error(
            text,
            "a discard is 'X: ' and the DUO cards shown",
            "et afkast er 'X: ' og de viste DUO-kort",
        )
    return cards


def _discard_refused(seat: str, card: str, move: str) -> IllegalMoveError:
    return illegal(
        "D3",
        f"Player {PLAYER_EN[seat]} may not discard: card {card} can be played ({move}).",
        f"Spiller {PLAYER_DA[seat]} må ikke smide kortene: kort {card} kan spilles ({move}).",
    )


def remaining_distance(position: DuoPosition) -> dict[str, Any]:
    """Steps each pawn still needs to reach its innermost goal circle, per area and
    player (W2 Decision): home 4n+4, start field 4n+3, locked 0."""
    lay = layout(position.fields)
    b = DuoBoard(position.locs, lay)
    pawns: dict[str, list[int]] = {}
    for a, name in enumerate(AREAS):
        lc = b.locked(a)
        row = []
        for lid in position.locs[a * PAWNS : a * PAWNS + PAWNS]:
            p = lay.pidx[a][lid]
            row.append(lay.last + 1 if p == -1 else 0 if p > lay.last - lc else lay.last - p)
        pawns[name] = row
    players = {s: sum(pawns[AREAS[i]]) + sum(pawns[AREAS[i + 2]]) for i, s in enumerate(PLAYERS)}
    return {"pawns": pawns, "players": players}


# --- the game: deals, turns, replay, self-play ------------------------------------------


class DuoGame:
    """Deals and turns of a DUO game (D1–D5)."""

    def __init__(self, ruleset: Ruleset, first_dealer: int, start: DuoPosition | None) -> None:
        self.ruleset = ruleset
        self.lay = layout(ruleset.board_fields)
        self.board = DuoBoard((start or DuoPosition.initial(ruleset.board_fields)).locs, self.lay)
        self.dealer = first_dealer
        self.deal_number = 1
        self.seen = {c: 0 for c, _ in ruleset.deck}
        self.copies = dict(ruleset.deck)
        self.hands = [ruleset.hand_size, ruleset.hand_size]
        self.to_move = 1 - first_dealer
        self.winner: str | None = None

    def _turn(self, s: int) -> None:
        if self.winner is not None:
            raise IllegalMoveError.of("w1", team=self.winner)
        if s != self.to_move:
            raise illegal(
                "D2",
                f"It is {PLAYER_EN[PLAYERS[self.to_move]]}'s turn.",
                f"Det er {PLAYER_DA[PLAYERS[self.to_move]]}s tur.",
            )

    def _advance(self, s: int) -> None:
        if self.hands[1 - s]:
            self.to_move = 1 - s
        elif self.hands[s]:
            self.to_move = s
        else:
            if self.deal_number < self.ruleset.deals_per_dealer:
                self.deal_number += 1
            else:
                self.dealer = 1 - self.dealer
                self.deal_number = 1
                self.seen = dict.fromkeys(self.seen, 0)
            self.hands = [self.ruleset.hand_size, self.ruleset.hand_size]
            self.to_move = 1 - self.dealer

    def _card(self, card: str, n: int = 1) -> None:
        if self.seen.get(card, 0) + n > self.copies.get(card, 0):
            raise illegal(
                "D5",
                f"Card {card} has already been played {self.seen.get(card, 0)} times since "
                "the shuffle.",
                f"Kort {card} er allerede spillet {self.seen.get(card, 0)} gange siden blandingen.",
            )

    def entry(self, text: str) -> list[tuple[str, int, int]]:
        """Check and play one entry (``"Y 5: YK3+5"`` or ``"R X: 3 7"``)."""
        if not isinstance(text, str) or text[:2] not in ("Y ", "R "):
            raise syntax_error(
                text, "a DUO entry starts with Y or R", "en DUO-post starter med Y/R"
            )
        s = PLAYERS.index(text[0])
        rest = text[2:].strip()
        self._turn(s)
        if rest.startswith("X:"):
            cards = _discard_cards(rest)
            if len(cards) != self.hands[s]:
                raise illegal(
                    "D3",
                    f"A discard shows the whole hand ({self.hands[s]} cards).",
                    f"Et afkast viser hele hånden ({self.hands[s]} kort).",
                )
            for card in set(cards):
                self._card(card, cards.count(card))
            for card in dict.fromkeys(cards):
                found = generate(self.board, s, card, first=True)
                if found:
                    raise _discard_refused(PLAYERS[s], card, str(found[0]))
            for card in cards:
                self.seen[card] += 1
            self.hands[s] = 0
            self._advance(s)
            return []
        move = parse_move(rest, self.lay.fields)
        self._card(move.card)
        b = self.board.copy()
        events = execute(b, s, move)
        self.board = b
        self.seen[move.card] += 1
        self.hands[s] -= 1
        if b.won(s):
            self.winner = PLAYERS[s]
            self.to_move = -1
        else:
            self._advance(s)
        return events


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


def replay(record: Mapping[str, Any], ruleset: Ruleset) -> DuoReplay:
    """Check a DUO game record; the first illegal entry is reported, not raised."""
    dealer = record.get("first_dealer")
    if dealer not in PLAYERS:
        raise syntax_error("game record", "'first_dealer' is Y or R", "'first_dealer' er Y eller R")
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise syntax_error("game record", "'moves' must be a list", "'moves' skal være en liste")
    start = record.get("start")
    position = None if start is None else DuoPosition.from_json(start, ruleset.board_fields)
    game = DuoGame(ruleset, PLAYERS.index(dealer), position)
    all_events: list[list[dict[str, str]]] = []
    error = None
    for index, text in enumerate(moves):
        try:
            evs = game.entry(text)
        except (IllegalMoveError, NotationError) as e:
            error = {
                "index": index,
                "move": str(text),
                "rule": e.rule,
                "message": e.message_en,
                "message_da": e.message_da,
            }
            break
        all_events.append(_events_json(game.lay, evs))
    return DuoReplay(
        ok=error is None,
        moves_checked=len(all_events),
        position=DuoPosition(game.board.locs, game.lay.fields),
        winner=game.winner,
        first_error=error,
        events=all_events,
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
