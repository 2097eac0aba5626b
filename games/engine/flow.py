"""Game flow: deals, turns, discards and the mutable game state (RULES.md D1–D6, W1).

:class:`Game` is the mutable state replay, judge entries and self-play share;
:class:`GameState` its immutable snapshot. Entries are dispatched on their
first token: a seat letter is a play or a discard; any other first token
(the judge's ``!``) goes to the handler registered in :data:`ENTRY_HANDLERS`
(:mod:`.game` registers the judge entries), so this module never imports
the judge.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .board import CARDS, COLOUR_DA, COLOUR_EN, SEAT_INDEX, SEATS
from .boardstate import Event, EventTuple, event_of
from .effects import effects_of
from .errors import EngineError, IllegalMoveError, NotationError
from .notation import Discard, Move, parse_entry
from .position import Position
from .ruleset import DM2023, Ruleset, get_ruleset
from .variants import rules_of

TEAM_OF_C = ("YB", "RG", "YB", "RG")


class Game:
    """Mutable game state used by replay and self-play (engine internal)."""

    __slots__ = (
        "board",
        "copies",
        "deal_number",
        "dealer",
        "first_dealer",
        "hands",
        "penalised",
        "rules",
        "ruleset",
        "seen",
        "start",
        "to_move",
        "winner",
    )

    def __init__(self, ruleset: Ruleset, first_dealer: int, start: Position | None = None) -> None:
        self.ruleset = ruleset
        self.rules = rules_of(ruleset)
        self.copies = {c: ruleset.copies(c) for c in CARDS}
        self.board = self.rules.board((start or Position.initial()).locs)
        # The record's start position: a void (judge.py) replays from it.
        self.start = start
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.deal_number = 1
        self.seen = dict.fromkeys(CARDS, 0)
        self.hands = [0, 0, 0, 0]
        self.penalised: set[int] = set()
        self.to_move = -1
        self.winner = self.board.winner()
        if self.winner is None:
            self._deal()

    def _deal(self) -> None:
        rs = self.ruleset
        self.hands = [
            rs.penalty_hand_size if s in self.penalised else rs.hand_size for s in range(4)
        ]
        self.penalised = set()
        self.to_move = (self.dealer + 1) % 4

    def _advance(self, seat: int) -> None:
        hands = self.hands
        for k in (1, 2, 3, 4):
            s = (seat + k) % 4
            if hands[s]:
                self.to_move = s
                return
        # D5: every hand is empty
        if self.deal_number < self.ruleset.deals_per_dealer:
            self.deal_number += 1
        else:
            self.dealer = (self.dealer + 1) % 4
            self.deal_number = 1
            self.seen = dict.fromkeys(CARDS, 0)
        self._deal()

    def _check_turn(self, seat: int) -> None:
        if self.winner is not None:
            raise IllegalMoveError.of("w1", team=self.winner)
        if seat != self.to_move:
            raise IllegalMoveError.of("d2", seat=SEATS[seat], turn=SEATS[self.to_move])

    def play(self, seat: int, move: Move) -> list[EventTuple]:
        """Check and play one move; on error the state is unchanged."""
        self._check_turn(seat)
        card = move.card
        n = self.seen[card]
        if n >= self.copies[card]:
            raise IllegalMoveError.of("d6", card=card, n=n)
        b = self.board
        saved = b.locs[:]
        try:
            events = self.rules.execute(b, seat, move)
        except EngineError:
            self.board = self.rules.board(saved)
            raise
        self.seen[card] = n + 1
        self.hands[seat] -= 1
        if self.rules.wins(b, seat, events):
            self.winner = TEAM_OF_C[seat]
            self.to_move = -1
        else:
            self._advance(seat)
        return events

    def discard(self, seat: int, discard: Discard) -> None:
        """Check and play a discard (D4, D6); on error the state is unchanged."""
        self._check_turn(seat)
        cards = discard.cards
        if len(cards) != self.hands[seat]:
            raise IllegalMoveError.of("d4_size", n=self.hands[seat], shown=len(cards))
        for card in set(cards):
            n = self.seen[card]
            if n + cards.count(card) > self.copies[card]:
                raise IllegalMoveError.of("d6", card=card, n=n)
        for card in dict.fromkeys(cards):
            m = self.rules.has_move(self.board, seat, card)
            if m is not None:
                raise IllegalMoveError.of("d4_playable", seat=SEATS[seat], card=card, move=str(m))
        for card in cards:
            self.seen[card] += 1
        self.hands[seat] = 0
        self._advance(seat)

    def penalise(self, seat: int) -> None:
        """P1: ``seat`` is dealt ``penalty_hand_size`` cards at the next deal (D1)."""
        self.penalised.add(seat)

    # --- what judge entries do (docs/judging.md) -------------------------------------

    def seat_index(self, seat: str) -> int:
        """The index of a seat letter in turn order."""
        return SEAT_INDEX[seat]

    def set_position(self, position: object) -> None:
        """``! SET``: the pawns stand at ``position``; a won position ends the game (W1)."""
        if not isinstance(position, Position):
            raise IllegalMoveError(
                "N",
                "A position names the colours Y, R, B and G.",
                "En stilling angiver farverne Y, R, B og G.",
            )
        position = Position.from_json(position.to_json(), self.ruleset)  # the game's own board
        self.board = self.rules.board(position.locs)
        self.winner = self.board.winner()
        if self.winner is not None:
            self.to_move = -1

    def send_home(self, seat: str, at: str) -> None:
        """``! P2``: the pawn of ``seat`` on field ``at`` goes back to its start circle."""
        data = Position(self.board.locs, _checked=True).to_json()
        if at not in data[seat]:
            raise IllegalMoveError(
                "P2",
                f"There is no {COLOUR_EN[seat]} pawn on {at} to send to its start circle.",
                f"Der står ingen {COLOUR_DA[seat]} brik på {at}, der kan sendes hjem.",
            )
        data[seat][data[seat].index(at)] = seat + "H"
        self.set_position(Position.from_json(data, self.ruleset))

    def award(self, side: str) -> None:
        """``! RESULT``: the judge gives the game to team ``side``; it ends."""
        self.winner = side
        self.to_move = -1

    def play_kept(self, text: str) -> None:
        """A kept entry counts as played (card, turn) but moves nothing; an
        unreadable one changes nothing."""
        try:
            seat_code, action = parse_entry(text)
        except EngineError:
            return
        seat = SEAT_INDEX[seat_code]
        if self.winner is not None:
            return
        cards = action.cards if isinstance(action, Discard) else (action.card,)
        for card in cards:
            self.seen[card] = min(self.copies[card], self.seen[card] + 1)
        self.hands[seat] = 0 if isinstance(action, Discard) else max(0, self.hands[seat] - 1)
        self._advance(seat)

    def entry(self, text: str, record: Sequence[Any] = (), index: int = 0) -> list[EventTuple]:
        """Check and play one game-record entry (dispatch on its first token).

        ``record`` and ``index`` locate the entry in its whole record, for
        entry kinds that refer to earlier entries (judge entries); a bare
        state passes an empty record.
        """
        head = text.split(" ", 1)[0] if isinstance(text, str) else ""
        handler = ENTRY_HANDLERS.get(head)
        if handler is not None:
            return handler(self, text, record, index)
        seat, action = parse_entry(text, self.ruleset.board)
        if isinstance(action, Discard):
            self.discard(SEAT_INDEX[seat], action)
            return []
        return self.play(SEAT_INDEX[seat], action)

    def snapshot(self) -> GameState:
        """An immutable :class:`GameState` of the current state."""
        cnt = self.board.cnt
        finished = tuple(
            s for c, s in enumerate(SEATS) if all(cnt[c * 20 + 16 + m] for m in range(4))
        )
        return GameState(
            position=Position(self.board.locs, _checked=True),
            to_move=None if self.to_move < 0 else SEATS[self.to_move],
            dealer=SEATS[self.dealer],
            deal_number=self.deal_number,
            hand_sizes={s: self.hands[c] for c, s in enumerate(SEATS)},
            penalised=tuple(SEATS[c] for c in sorted(self.penalised)),
            cards_seen=dict(self.seen),
            winner=self.winner,
            finished_seats=finished,
            ruleset=self.ruleset,
            first_dealer=SEATS[self.first_dealer],
        )

    @classmethod
    def from_state(cls, state: GameState) -> Game:
        """A mutable game continuing from ``state``."""
        g = cls.__new__(cls)
        g.ruleset = state.ruleset
        g.rules = rules_of(state.ruleset)
        g.copies = {c: state.ruleset.copies(c) for c in CARDS}
        g.board = g.rules.board(state.position.locs)
        g.start = None
        g.first_dealer = SEAT_INDEX[state.first_dealer]
        g.dealer = SEAT_INDEX[state.dealer]
        g.deal_number = state.deal_number
        g.seen = dict(state.cards_seen)
        g.hands = [state.hand_sizes[s] for s in SEATS]
        g.penalised = {SEAT_INDEX[s] for s in state.penalised}
        g.to_move = -1 if state.to_move is None else SEAT_INDEX[state.to_move]
        g.winner = state.winner
        return g


EntryHandler = Callable[[Game, str, Sequence[Any], int], list[EventTuple]]
ENTRY_HANDLERS: dict[str, EntryHandler] = {}
"""Handlers for entries whose first token is not a seat (judge entries: judge.py).

A handler gets the game (to change in place), the entry's text, the whole
record's entry list and the entry's index in it; it returns the entry's
events or raises an EngineError (the game must then be unchanged)."""


@dataclass(frozen=True)
class GameState:
    """The deal and turn state after the accepted entries of a record."""

    position: Position
    to_move: str | None
    dealer: str
    deal_number: int
    hand_sizes: dict[str, int]
    cards_seen: dict[str, int]
    winner: str | None
    finished_seats: tuple[str, ...]
    ruleset: Ruleset = DM2023
    first_dealer: str = "Y"
    penalised: tuple[str, ...] = ()
    """Seats dealt the penalty hand (P1) at the next deal."""

    @classmethod
    def initial(
        cls, first_dealer: str, ruleset: Ruleset = DM2023, start: Position | None = None
    ) -> GameState:
        """The state before the first entry of a game."""
        if first_dealer not in SEAT_INDEX:
            raise NotationError.of(
                "syntax",
                what=first_dealer,
                why="the dealer is Y, R, B or G",
                why_da="kortgiveren er Y, R, B eller G",
            )
        return Game(ruleset, SEAT_INDEX[first_dealer], start).snapshot()

    def play(self, entry: str) -> tuple[GameState, list[Event]]:
        """Check one entry (e.g. ``"Y 5: Y3+5"``); the next state and its events.

        Raises NotationError or IllegalMoveError; ``self`` is never changed.
        """
        g = Game.from_state(self)
        events = g.entry(entry)
        return g.snapshot(), [event_of(e) for e in events]

    def legal_entries(self) -> dict[str, list[str]]:
        """Legal moves per card for the seat to move (canonical move texts).

        Covers every card kind that may still be in that player's hand (not
        yet played or discarded 4 times since the shuffle); the engine cannot
        know the hand itself. Empty when the game is over.
        """
        return {card: [str(m) for m in moves] for card, moves in self._legal_moves().items()}

    def legal_effects(self) -> dict[str, list[str]]:
        """What each legal entry does, aligned with :meth:`legal_entries`.

        For every card of :meth:`legal_entries`, the list holds, at the same
        index, the compact effect string of that entry (``effects.py``):
        pawns moved ``FROM>TO``, hits ``hC@LOC``, locks ``lC@LOC`` and a
        winner ``wYB``/``wRG``. Computed by playing each move with the
        engine's own move code on a copy of the board.
        """
        return self.legal_entries_with_effects()[1]

    def legal_entries_with_effects(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """:meth:`legal_entries` and :meth:`legal_effects` from one move generation."""
        if self.to_move is None:
            return {}, {}
        moves = self._legal_moves()
        rules = rules_of(self.ruleset)
        b = rules.board(self.position.locs)
        c = SEAT_INDEX[self.to_move]
        entries = {card: [str(m) for m in listed] for card, listed in moves.items()}
        effects = {card: effects_of(b, c, listed, rules) for card, listed in moves.items()}
        return entries, effects

    def _legal_moves(self) -> dict[str, list[Move]]:
        if self.to_move is None:
            return {}
        rules = rules_of(self.ruleset)
        b = rules.board(self.position.locs)
        c = SEAT_INDEX[self.to_move]
        return {
            card: rules.gen_moves(b, c, card)
            for card in CARDS
            if self.cards_seen.get(card, 0) < self.ruleset.copies(card)
        }


def _record_error(why: str, why_da: str) -> NotationError:
    return NotationError.of("syntax", what="game record", why=why, why_da=why_da)


def read_record(
    record: Mapping[str, Any], ruleset: Ruleset | None
) -> tuple[Ruleset, Game, list[Any]]:
    """Validate a record's frame and set up its game; raises NotationError/PositionError."""
    if not isinstance(record, Mapping):
        raise _record_error("a game record is a JSON object", "et spil er et JSON-objekt")
    if ruleset is None:
        name = record.get("ruleset")
        if name is None:
            raise _record_error("the field 'ruleset' is missing", "feltet 'ruleset' mangler")
        try:
            ruleset = get_ruleset(name)
        except ValueError:
            raise _record_error(f"unknown ruleset {name!r}", f"ukendt regelsæt {name!r}") from None
    if ruleset.seats != SEATS:
        # This reads the four seats' records; every ruleset's own reader is its
        # variant's (games.engine.variant.record_game, replay).
        raise _record_error(
            f"ruleset {ruleset.name!r} is not played at four seats: replay it through its "
            "variant (games.engine.replay)",
            f"regelsættet {ruleset.name!r} spilles ikke på fire pladser: genafspil det gennem "
            "sin variant (games.engine.replay)",
        )
    dealer = record.get("first_dealer")
    if dealer not in SEAT_INDEX:
        raise _record_error(
            "'first_dealer' must be Y, R, B or G", "'first_dealer' skal være Y, R, B eller G"
        )
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise _record_error("'moves' must be a list of entries", "'moves' skal være en liste")
    start = record.get("start")
    position = None if start is None else Position.from_json(start, ruleset)
    return ruleset, Game(ruleset, SEAT_INDEX[dealer], position), moves
