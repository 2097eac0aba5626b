"""DUO games: the public functions, deals and turns, a table device's state (D1–D6, W1, W2)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..boardstate import Event
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

EventTuple = tuple[str, int, int]
"""An internal DUO event: (type, area, location id)."""


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


def events_json(lay: Layout, events: list[EventTuple]) -> list[dict[str, str]]:
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
    return DuoApplied(DuoPosition(b.locs, position.fields), events_json(lay, events))


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


# --- the game: deals and turns ------------------------------------------------------


SIDE_TEAM: dict[str, str] = {"Y": "YB", "R": "RG"}
"""A DUO player's side in the four-seat result vocabulary: ``Y`` wins as ``YB``, ``R`` as ``RG``."""

DuoEntryHandler = Callable[["DuoGame", str, Sequence[Any], int], list[EventTuple]]
DUO_ENTRY_HANDLERS: dict[str, DuoEntryHandler] = {}
"""Handlers for entries whose first token is not a player: the judge's ``!``
(registered by :mod:`games.engine.game`, as for the four-seat flow)."""


_SEAT_OF: dict[str, int] = {"Y ": 0, "R ": 1}
"""A player's entry starts with the player and a space."""


@lru_cache(maxsize=65_536)
def _read_play(text: str, fields: int) -> tuple[DuoMove | None, tuple[str, ...]]:
    """The move of a player's entry ``"Y 5: YK3+5"``, or None and the cards of a
    discard ``"R X: 3 7"``; cached, as records repeat their entries. Raises NotationError."""
    rest = text[2:].strip()
    if rest.startswith("X:"):
        return None, _discard_cards(rest)
    return parse_move(rest, fields), ()


class DuoGame:
    """Deals and turns of a DUO game (D1–D5); judge entries through :data:`DUO_ENTRY_HANDLERS`."""

    __slots__ = (
        "board",
        "copies",
        "deal_number",
        "dealer",
        "first_dealer",
        "hands",
        "lay",
        "penalised",
        "ruleset",
        "seen",
        "start",
        "to_move",
        "winner",
    )

    def __init__(self, ruleset: Ruleset, first_dealer: int, start: DuoPosition | None) -> None:
        self.ruleset = ruleset
        self.lay = layout(ruleset.board_fields)
        self.board = DuoBoard((start or DuoPosition.initial(ruleset.board_fields)).locs, self.lay)
        # The record's start position: a void (judge.py) replays from it.
        self.start = start
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.deal_number = 1
        self.seen = {c: 0 for c, _ in ruleset.deck}
        self.copies = dict(ruleset.deck)
        self.hands = [ruleset.hand_size, ruleset.hand_size]
        self.penalised: set[int] = set()
        self.to_move = 1 - first_dealer
        self.winner: str | None = None
        if start is not None:
            self._check_won()

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
            rs = self.ruleset
            self.hands = [
                rs.penalty_hand_size if p in self.penalised else rs.hand_size for p in (0, 1)
            ]
            self.penalised = set()
            self.to_move = 1 - self.dealer

    def _card(self, card: str, n: int = 1) -> None:
        if self.seen.get(card, 0) + n > self.copies.get(card, 0):
            raise illegal(
                "D5",
                f"Card {card} has already been played {self.seen.get(card, 0)} times since "
                "the shuffle.",
                f"Kort {card} er allerede spillet {self.seen.get(card, 0)} gange siden blandingen.",
            )

    def _check_won(self) -> None:
        for s in (0, 1):
            if self.board.won(s):
                self.winner = PLAYERS[s]
                self.to_move = -1
                return

    def entry(self, text: str, record: Sequence[Any] = (), index: int = 0) -> list[EventTuple]:
        """Check and play one entry (``"Y 5: YK3+5"``, ``"R X: 3 7"`` or a judge's ``"! …"``).

        ``record`` and ``index`` locate the entry in its whole record, for
        judge entries that refer to earlier entries. On error the game is unchanged.
        """
        s = _SEAT_OF.get(text[:2]) if isinstance(text, str) else None
        if s is None:
            head = text.split(" ", 1)[0] if isinstance(text, str) else ""
            handler = DUO_ENTRY_HANDLERS.get(head)
            if handler is not None:
                return handler(self, text, record, index)
            raise syntax_error(
                text, "a DUO entry starts with Y or R", "en DUO-post starter med Y/R"
            )
        self._turn(s)
        move, cards = _read_play(text, self.lay.fields)
        if move is None:
            return self._discard(s, cards)
        self._card(move.card)
        board = self.board
        # execute() may leave a refused split 4 half played: its pawn locations
        # are enough to rebuild the board (owner only counts on occupied fields).
        before = board.locs[:]
        try:
            events = execute(board, s, move)
        except BaseException:
            self.board = DuoBoard(before, self.lay)
            raise
        self.seen[move.card] += 1
        self.hands[s] -= 1
        if board.won(s):
            self.winner = PLAYERS[s]
            self.to_move = -1
        else:
            self._advance(s)
        return events

    def _discard(self, s: int, cards: tuple[str, ...]) -> list[EventTuple]:
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

    # --- what judge entries do (docs/rulesets/duo.md "Judge entries") ---------------

    def penalise(self, s: int) -> None:
        """P1: player ``s`` is dealt ``penalty_hand_size`` cards at the next deal."""
        self.penalised.add(s)

    def seat_index(self, seat: str) -> int:
        """The index of a player's letter in turn order."""
        return PLAYERS.index(seat)

    def set_position(self, position: object) -> None:
        """``! SET``: the pawns stand at ``position``; a won position ends the game (W1)."""
        if not isinstance(position, DuoPosition):
            raise illegal(
                "N",
                "A DUO position names the areas YK, RK, YO and RO.",
                "En DUO-stilling angiver områderne YK, RK, YO og RO.",
            )
        if position.fields != self.lay.fields:
            position = DuoPosition.from_json(position.to_json(), self.lay.fields)
        self.board = DuoBoard(position.locs, self.lay)
        self._check_won()

    def send_home(self, seat: str, at: str) -> None:
        """``! P2``: the pawn of ``seat`` on field ``at`` goes back to its home area."""
        data = DuoPosition(self.board.locs, self.lay.fields).to_json()
        s = PLAYERS.index(seat)
        for area in (AREAS[s], AREAS[s + 2]):
            if at in data[area]:
                data[area][data[area].index(at)] = area + "H"
                self.set_position(DuoPosition.from_json(data, self.lay.fields))
                return
        raise illegal(
            "P2",
            f"There is no {PLAYER_EN[seat]} pawn on {at} to send home.",
            f"Der står ingen {PLAYER_DA[seat]} brik på {at}, der kan sendes hjem.",
        )

    def award(self, team: str) -> None:
        """``! RESULT``: the judge gives the game to side ``team`` (``YB`` is Y, ``RG`` R)."""
        self.winner = team[0]
        self.to_move = -1

    def play_kept(self, text: str) -> None:
        """A kept entry counts as played (its cards leave the hand, the turn passes)
        but moves nothing; an unreadable one changes nothing."""
        if self.winner is not None or not isinstance(text, str) or text[:2] not in ("Y ", "R "):
            return
        s = PLAYERS.index(text[0])
        rest = text[2:].strip()
        try:
            cards = (
                _discard_cards(rest)
                if rest.startswith("X:")
                else (parse_move(rest, self.lay.fields).card,)
            )
        except NotationError:
            return
        for card in cards:
            self.seen[card] = min(self.copies.get(card, 0), self.seen.get(card, 0) + 1)
        self.hands[s] = 0 if rest.startswith("X:") else max(0, self.hands[s] - 1)
        self._advance(s)

    # --- snapshots ------------------------------------------------------------------

    def snapshot(self) -> DuoState:
        """An immutable :class:`DuoState` of the current state."""
        return DuoState(
            position=DuoPosition(self.board.locs, self.lay.fields),
            to_move=None if self.to_move < 0 else PLAYERS[self.to_move],
            dealer=PLAYERS[self.dealer],
            deal_number=self.deal_number,
            hand_sizes={p: self.hands[s] for s, p in enumerate(PLAYERS)},
            cards_seen=dict(self.seen),
            winner=None if self.winner is None else SIDE_TEAM[self.winner],
            finished_seats=tuple(p for s, p in enumerate(PLAYERS) if self.board.won(s)),
            ruleset=self.ruleset,
            first_dealer=PLAYERS[self.first_dealer],
            penalised=tuple(PLAYERS[s] for s in sorted(self.penalised)),
        )

    @classmethod
    def from_state(cls, state: DuoState) -> DuoGame:
        """A mutable game continuing from ``state``."""
        g = cls(state.ruleset, PLAYERS.index(state.first_dealer), None)
        g.board = DuoBoard(state.position.locs, g.lay)
        g.dealer = PLAYERS.index(state.dealer)
        g.deal_number = state.deal_number
        g.seen = dict(state.cards_seen)
        g.hands = [state.hand_sizes[p] for p in PLAYERS]
        g.penalised = {PLAYERS.index(p) for p in state.penalised}
        g.to_move = -1 if state.to_move is None else PLAYERS.index(state.to_move)
        g.winner = None if state.winner is None else state.winner[0]
        return g


def duo_events(lay: Layout, events: list[EventTuple]) -> list[Event]:
    """Public events of internal DUO event tuples (``colour`` is the area, ``at`` a code)."""
    return [Event(t, AREAS[a], lay.codes[lid]) for t, a, lid in events]


@dataclass(frozen=True)
class DuoState:
    """The deal and turn state after the accepted entries of a DUO record.

    The same fields and methods as the four-seat ``GameState``, so a table
    reads either without asking which ruleset it plays: seats are the
    players ``Y`` and ``R``; ``winner`` is the side ``"YB"`` (Y) or ``"RG"`` (R).
    """

    position: DuoPosition
    to_move: str | None
    dealer: str
    deal_number: int
    hand_sizes: dict[str, int]
    cards_seen: dict[str, int]
    winner: str | None
    finished_seats: tuple[str, ...]
    ruleset: Ruleset
    first_dealer: str = "Y"
    penalised: tuple[str, ...] = ()
    """Players dealt the penalty hand (P1) at the next deal."""

    @classmethod
    def initial(
        cls, first_dealer: str, ruleset: Ruleset, start: DuoPosition | None = None
    ) -> DuoState:
        """The state before the first entry of a game."""
        if first_dealer not in PLAYERS:
            raise syntax_error(first_dealer, "the DUO dealer is Y or R", "DUO-giveren er Y eller R")
        return DuoGame(ruleset, PLAYERS.index(first_dealer), start).snapshot()

    def play(self, entry: str) -> tuple[DuoState, list[Event]]:
        """Check one entry (``"Y 5: YK3+5"``); the next state and its events.

        Raises NotationError or IllegalMoveError; ``self`` is never changed.
        """
        g = DuoGame.from_state(self)
        events = g.entry(entry)
        return g.snapshot(), duo_events(g.lay, events)

    def legal_entries(self) -> dict[str, list[str]]:
        """Legal moves per card kind that may still be in the hand of the player to move."""
        return {card: [str(m) for m in moves] for card, moves in self._legal_moves().items()}

    def legal_effects(self) -> dict[str, list[str]]:
        """What each legal entry does, aligned with :meth:`legal_entries` (effects.py format)."""
        return self.legal_entries_with_effects()[1]

    def legal_entries_with_effects(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """:meth:`legal_entries` and :meth:`legal_effects` from one move generation.

        An effect string as for the four-seat boards (``games.engine.effects``)
        with DUO codes: ``YK3>YK8`` a pawn moved, ``hRO@YK8`` a pawn of area
        RO hit home, ``lYK@YKM1`` a lock, ``wYB`` the entry wins for Y.
        """
        moves = self._legal_moves()
        if not moves:
            return {}, {}
        lay = layout(self.position.fields)
        board = DuoBoard(self.position.locs, lay)
        s = PLAYERS.index(self.to_move or "Y")
        entries: dict[str, list[str]] = {}
        effects: dict[str, list[str]] = {}
        for card, listed in moves.items():
            entries[card] = [str(m) for m in listed]
            effects[card] = [_effect(board, s, m) for m in listed]
        return entries, effects

    def _legal_moves(self) -> dict[str, list[DuoMove]]:
        if self.to_move is None:
            return {}
        board = DuoBoard(self.position.locs, layout(self.position.fields))
        s = PLAYERS.index(self.to_move)
        return {
            card: generate(board, s, card)
            for card in self.ruleset.deck_cards()
            if self.cards_seen.get(card, 0) < self.ruleset.copies(card)
        }


def _effect(board: DuoBoard, s: int, move: DuoMove) -> str:
    b = board.copy()
    events = execute(b, s, move)
    codes = board.lay.codes
    tokens = [
        f"{codes[before]}>{codes[after]}"
        for before, after in zip(board.locs, b.locs, strict=True)
        if before != after
    ]
    tokens += [f"{t[0]}{AREAS[a]}@{codes[lid]}" for t, a, lid in events]
    if b.won(s):
        tokens.append("w" + SIDE_TEAM[PLAYERS[s]])
    return " ".join(tokens)
