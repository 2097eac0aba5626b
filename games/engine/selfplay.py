"""Seeded self-play: complete random legal games as game records.

The deck is shuffled and dealt for real (D1, D5), partners exchange a card,
and each bot plays a legal move of a card it holds or discards a hand that
has none (D4). Turn order comes from the same :class:`~.game.Game` that
replay uses, so every record replays by construction. Randomness comes only
from ``random.Random(seed)``: the same seed gives the same record.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .board import CARDS, SEAT_INDEX, SEATS
from .flow import Game
from .notation import Discard, Move
from .ruleset import DM2023, Ruleset
from .variants import rules_of

_DRAW_VALUE = {c: (0 if c in ("J", "11") else 14 if c == "1" else int(c)) for c in CARDS}
"""D7: swap and heart count 0, a two-value card its higher value."""

MAX_ENTRIES = 50_000


def draw_first_dealer(rng: random.Random, ruleset: Ruleset = DM2023) -> str:
    """D7: each player draws a card; the highest deals; ties draw again."""
    deck = [c for c, n in ruleset.deck for _ in range(n)]
    rng.shuffle(deck)
    drawing = list(SEATS)
    while True:
        if len(deck) < len(drawing):
            deck = [c for c, n in ruleset.deck for _ in range(n)]
            rng.shuffle(deck)
        values = {s: _DRAW_VALUE[deck.pop()] for s in drawing}
        best = max(values.values())
        drawing = [s for s in drawing if values[s] == best]
        if len(drawing) == 1:
            return drawing[0]


def _choose(rng: random.Random, options: list[tuple[str, list[Move]]]) -> Move:
    """A random card, then a move of it, leaning towards locking and entering.

    Pure uniform play makes very long games; a mild preference for moves that
    make progress keeps the corpus realistic and fast while still covering
    every kind of move.
    """
    rand = rng.random
    _card, moves = options[int(rand() * len(options))]
    if len(moves) > 1 and rand() < 0.5:
        # entering, or moving a pawn that stands in its finish area
        best = [m for m in moves if "M" in m._text or m.kind == "in"]
        if best:
            return best[int(rand() * len(best))]
    return moves[int(rand() * len(moves))]


Observer = Callable[[tuple[int, ...], int, tuple[str, ...]], None]


def play_game(
    seed: int,
    ruleset: Ruleset = DM2023,
    first_dealer: str | None = None,
    observe: Observer | None = None,
) -> dict[str, Any]:
    """A four-seat self-play game (:func:`.variant.selfplay_game` is the public
    call), calling ``observe(locs, seat, hand)`` before each turn
    and once more after the win with seat -1 and an empty hand."""
    rng = random.Random(seed)
    dealer = first_dealer if first_dealer is not None else draw_first_dealer(rng, ruleset)
    game = Game(ruleset, SEAT_INDEX[dealer])
    rules = rules_of(ruleset)
    full_deck = [c for c, n in ruleset.deck for _ in range(n)]
    deck: list[str] = []
    hands: list[list[str]] = [[], [], [], []]
    deal_key = (-1, -1)
    entries: list[str] = []
    rand = rng.random
    while game.winner is None:
        if (game.dealer, game.deal_number) != deal_key:
            deal_key = (game.dealer, game.deal_number)
            if game.deal_number == 1:
                deck = full_deck[:]
                rng.shuffle(deck)
            for s in range(4):
                hands[s] = [deck.pop() for _ in range(game.hands[s])]
            gifts = [hand.pop(rng.randrange(len(hand))) for hand in hands]
            for s in range(4):
                hands[(s + 2) % 4].append(gifts[s])
        s = game.to_move
        hand = hands[s]
        board = game.board
        if observe is not None:
            observe(tuple(board.locs), s, tuple(hand))
        # The first playable card in a shuffled hand is a uniform choice among
        # the playable cards, without generating the moves of the others.
        options = []
        order = list(dict.fromkeys(hand))
        for x in range(len(order) - 1, 0, -1):  # Fisher-Yates on rng.random(): cheaper
            y = int(rand() * (x + 1))
            order[x], order[y] = order[y], order[x]
        for card in order:
            if card == "7":
                # all splits of a 7 can run to hundreds; one random legal split suffices
                seven = rules.random_seven(board, s, rng)
                moves = [seven] if seven is not None else []
            else:
                moves = rules.gen_moves(board, s, card)
            if moves:
                options.append((card, moves))
                break
        if not options:
            d = Discard(tuple(hand))
            game.discard(s, d)
            entries.append(f"{SEATS[s]} {d}")
            hand.clear()
        else:
            move = _choose(rng, options)
            game.play(s, move)
            hand.remove(move.card)
            entries.append(f"{SEATS[s]} {move}")
        if len(entries) > MAX_ENTRIES:  # pragma: no cover - a safety net, never seen
            raise RuntimeError(f"self-play seed {seed} did not finish")
    if observe is not None:
        observe(tuple(game.board.locs), -1, ())
    return {
        "ruleset": ruleset.name,
        "first_dealer": dealer,
        "players": {s: f"Bot {s}" for s in SEATS},
        "moves": entries,
    }
