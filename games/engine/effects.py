"""What each legal move does: pawns moved, hits, locks, winner — compactly.

A table device shows the result of a move before it is confirmed, also
offline. Instead of asking the server per move, the state carries the effect
of every legal entry. Each effect is played by the engine's own
:func:`~.rules.execute` on a copy of the board (nothing is re-implemented),
and written as one short string of space-separated tokens:

=================  ===========================================================
``Y3>Y8``          a pawn moved from ``Y3`` to ``Y8`` (its location before and
                   after the whole entry; a pawn hit home ends on its start
                   circle, e.g. ``Y8>RH``)
``hR@Y8``          event: a pawn of colour R is hit home from ``Y8`` (T2)
``lY@YM1``         event: a pawn of colour Y locks on ``YM1`` (F2)
``wYB``            the entry wins the game for team YB (W1)
=================  ===========================================================

Moves come first, in pawn order (colours Y, R, B, G; within a colour by
location before the entry), then the events in the order they happened,
then the winner. An event token is its ``{type, colour, at}`` (NOTATION.md
``apply``) written as ``type[0] + colour + "@" + at``.

The colour of a moved pawn is not written: it is the colour of the pawn on
the move's first location in the position before the entry (two colours
never share a field, T1; start circles, start fields and goal circles name
their colour).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .board import SEATS
from .boardstate import Board
from .notation import Move
from .rulebook_board import RB_CODES
from .ruleset import DM2023
from .variants import MoveRules, rules_of

TEAM_OF_C = ("YB", "RG", "YB", "RG")


def _copy(b: Board) -> Board:
    new = type(b).__new__(type(b))
    new.locs = b.locs[:]
    new.cnt = b.cnt[:]
    new.owner = b.owner[:]
    return new


def move_effect(b: Board, seat_c: int, move: Move, rules: MoveRules | None = None) -> str:
    """The effect string of a **legal** ``move`` for seat colour ``seat_c`` on ``b``.

    ``b`` is not changed. An illegal move raises the engine's error.
    ``rules`` default to dm2023's.
    """
    rules = rules or rules_of(DM2023)
    after = _copy(b)
    events = rules.execute(after, seat_c, move)
    before_locs, after_locs = b.locs, after.locs
    tokens = [
        f"{RB_CODES[x]}>{RB_CODES[y]}"
        for x, y in zip(before_locs, after_locs, strict=True)
        if x != y
    ]
    for kind, c, lid in events:
        tokens.append(f"{kind[0]}{SEATS[c]}@{RB_CODES[lid]}")
    if rules.wins(after, seat_c, events):
        tokens.append("w" + TEAM_OF_C[seat_c])
    return " ".join(tokens)


def effects_of(
    b: Board, seat_c: int, moves: Iterable[Move], rules: MoveRules | None = None
) -> list[str]:
    """The effect strings of ``moves`` (all legal for ``seat_c`` on ``b``), in order."""
    return [move_effect(b, seat_c, m, rules) for m in moves]


def parse_effect(effect: str) -> dict[str, object]:
    """Read an effect string back: ``{"moves": [[from, to], …], "events": [{type,
    colour, at}, …], "winner": team or None}`` (for tests and tools)."""
    moves: list[list[str]] = []
    events: list[dict[str, str]] = []
    winner: str | None = None
    kinds = {"h": "hit", "l": "lock"}
    for token in effect.split():
        if ">" in token:
            src, dst = token.split(">")
            moves.append([src, dst])
        elif token[0] == "w":
            winner = token[1:]
        else:
            colour, at = token[1:].split("@")
            events.append({"type": kinds[token[0]], "colour": colour, "at": at})
    return {"moves": moves, "events": events, "winner": winner}


def index_effects(per_card: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """Share equal effects: ``{"effects": [unique effect strings], "by_card": {card: [i, …]}}``.

    ``by_card[card][k]`` is the index in ``effects`` of the effect of the
    k-th legal entry of ``card``. Different orders of the same parts of a 7
    usually do the same, so this about halves the size of a state with a 7.
    """
    table: dict[str, int] = {}
    by_card: dict[str, list[int]] = {}
    for card, effects in per_card.items():
        by_card[card] = [table.setdefault(e, len(table)) for e in effects]
    return {"effects": list(table), "by_card": by_card}
