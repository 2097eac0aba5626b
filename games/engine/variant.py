"""Rulesets as variants in one registry: their facts and their behaviour behind one API.

As in python-chess (``chess/variant.py``: ``VARIANTS``, ``find_variant``),
every ruleset is a :class:`Variant` registered in :data:`VARIANTS`, and a
caller holding one never asks which it holds: a variant answers its facts
(``name``, ``label``, ``players``, ``seats``, ``teams``, ``pawns_per_side``,
``singles``, ``deck``, ``board``; :meth:`Variant.facts` as JSON) and plays
its games (positions, states, legal moves, playing a move, replay,
self-play, the command line's answers) in the same shapes.

Two engines stand behind the variants: the four-seat one (:class:`PartnersVariant`:
``dm2023``, ``fr``, ``rulebook``; its boards plug in through
:mod:`.variants`) and DUO's (:class:`DuoVariant`, :mod:`.duo`).

**A new ruleset goes here**: a :class:`~.ruleset.Ruleset` with its facts and
one :func:`register_variant` call below (``PartnersVariant`` for a new
reading of the four-seat game, a new :class:`Variant` subclass for a new
game). Everything else (the event's ruleset choices, forms, validators,
printing, the table device's ruleset data) reads the registry.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from . import duo
from .boardstate import Event
from .distance import (
    duo_adjudicate,
    duo_distance,
    four_seat_adjudicate,
    four_seat_distance,
    four_seat_standing,
    standing_of,
)
from .duo.game import DuoState
from .duo.position import DuoPosition
from .duo.record import read_duo_record
from .duo.record import selfplay_game as duo_selfplay_game
from .errors import IllegalMoveError, NotationError
from .flow import GameState, read_record
from .game import AnyPosition, AnyState, ReplayResult, replay_duo, replay_four_seat
from .judge import AnyGame, JudgeEntry, read_duo_entry, read_four_seat_entry
from .notation import Discard, Move, format_move, parse_discard, parse_move
from .position import Position
from .rules import apply_move, legal_moves
from .ruleset import DM2023, DUO, FR, RULEBOOK, Ruleset
from .selfplay import Observer, play_game

AnyMove = Move | duo.DuoMove
"""A parsed move of any ruleset; ``str()`` gives its canonical text."""


class Variant(ABC):
    """One ruleset: its facts (:attr:`ruleset`) and the engine that plays it."""

    unknown_seat: ClassVar[tuple[str, str]]
    """The command line's refusal of a seat, English and Danish (``{seat!r}`` filled in)."""
    unknown_card: ClassVar[tuple[str, str]]
    """The command line's refusal of a card, English and Danish (``{card!r}`` filled in)."""
    position_hint: ClassVar[tuple[str, str]]
    """How a position is written, English and Danish (a judge's refusal of a position
    that is not a table of pawn locations)."""
    position_example: ClassVar[str]
    """A position in a judge's ``! SET`` notation, for the judge's form."""
    field_example: ClassVar[str]
    """A track field in the ruleset's notation (a judge's P2 names the pawn on it)."""
    move_example: ClassVar[str]
    """A move in the ruleset's notation (the table's typed move, a judge's forced move)."""
    counted_in_statistics: ClassVar[bool]
    """Its games count in the statistics, which are per four seats and two pairs
    (docs/ratings-and-statistics.md)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.ruleset.name!r})"

    # --- facts --------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The ruleset id used in game records (``"dm2023"``)."""
        return self.ruleset.name

    def label(self, language: str) -> str:
        """The ruleset's name for people in ``language`` (``"da"`` or ``"en"``)."""
        return self.ruleset.label(language)

    @property
    def players(self) -> int:
        """Players at a table."""
        return self.ruleset.players

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats of a table in turn order."""
        return self.ruleset.seats

    @property
    def teams(self) -> dict[str, tuple[str, ...]]:
        """The two sides by result code (``YB``, ``RG``) and their seats."""
        return self.ruleset.teams

    @property
    def pawns_per_side(self) -> int:
        """The pawns one side brings to the board (S2)."""
        return self.ruleset.pawns_per_side

    @property
    def singles(self) -> bool:
        """Each side is one player (an entrant is one person), not a pair."""
        return self.ruleset.singles

    @property
    def deck(self) -> tuple[str, ...]:
        """The card kinds of the deck, in card order (C1)."""
        return self.ruleset.deck_cards()

    @property
    def board(self) -> str:
        """The board the ruleset plays on (``"dm"``, ``"rulebook"``, ``"duo"``)."""
        return self.ruleset.board

    def facts(self) -> dict[str, Any]:
        """The facts a page or a device needs to draw and name the ruleset, as JSON."""
        rs = self.ruleset
        return {
            "name": rs.name,
            "label": {"en": rs.label_en, "da": rs.label_da},
            "players": rs.players,
            "singles": rs.singles,
            "seats": list(rs.seats),
            "teams": {side: list(seats) for side, seats in rs.teams.items()},
            "colours": list(rs.colours),
            "pawns_per_side": rs.pawns_per_side,
            "cards": list(rs.deck_cards()),
            "board": rs.board,
            "board_fields": rs.board_fields,
            "enter": list(rs.entering_cards),
            "split": rs.split_card,
            "swap": rs.swap_card,
            "rules": {"timeUp": rs.timeout_rule, "gameOver": "W1"},
        }

    @property
    def timeout_rule(self) -> str:
        """The rule that decides a game whose time is up (W3; DUO W2)."""
        return self.ruleset.timeout_rule

    # --- positions and states -----------------------------------------------------

    @abstractmethod
    def initial_position(self) -> AnyPosition:
        """Every pawn at home (S2)."""

    @abstractmethod
    def position_from_json(self, data: Mapping[str, Any]) -> AnyPosition:
        """Read a position in the ruleset's notation; raises PositionError."""

    @abstractmethod
    def position_of_locs(self, locs: Sequence[int]) -> AnyPosition:
        """The position of the engine's pawn locations (as self-play observes them)."""

    @abstractmethod
    def initial_state(self, first_dealer: str, start: AnyPosition | None = None) -> AnyState:
        """The deal and turn state before a game's first entry; raises NotationError."""

    # --- moves --------------------------------------------------------------------

    @abstractmethod
    def canonical_move(self, text: str) -> str:
        """The canonical text of a move; raises NotationError."""

    @abstractmethod
    def moves(self, position: AnyPosition, seat: str, card: str) -> Sequence[AnyMove]:
        """Every legal move of ``card`` for ``seat``, in canonical order."""

    def legal_moves(self, position: AnyPosition, seat: str, card: str) -> list[str]:
        """The canonical texts of every legal move of ``card`` for ``seat``."""
        return [str(m) for m in self.moves(position, seat, card)]

    @abstractmethod
    def play(self, position: AnyPosition, seat: str, move: str) -> tuple[AnyPosition, list[Event]]:
        """Play ``move`` (or check a discard) for ``seat``: the new position and its events.

        Raises NotationError or IllegalMoveError with the ruleset's rule id.
        """

    @abstractmethod
    def apply_answer(self, position: AnyPosition, seat: str, move: Any) -> dict[str, Any]:
        """The command line's ``apply`` answer (NOTATION.md): ``ok`` with the position
        and events, or ``ok: false`` with the error; raises NotationError for a
        request it cannot read."""

    @abstractmethod
    def remaining_distance(self, position: AnyPosition) -> dict[str, Any]:
        """Remaining distance per pawn and per side (:func:`.distance.remaining_distance`)."""

    @abstractmethod
    def team_standing(self, position: AnyPosition) -> tuple[int, int, int, int]:
        """``(distance YB, distance RG, locked YB, locked RG)``
        (:func:`.distance.team_standing`)."""

    @abstractmethod
    def adjudicate(self, position: AnyPosition) -> dict[str, Any]:
        """The time-out proposal (:func:`.distance.adjudicate`; rule :attr:`timeout_rule`)."""

    # --- games --------------------------------------------------------------------

    @abstractmethod
    def parse_judge_entry(self, text: str) -> JudgeEntry:
        """A judge entry in the ruleset's notation; raises NotationError (PositionError
        for a bad SET)."""

    @abstractmethod
    def read_game(self, record: Mapping[str, Any]) -> tuple[AnyGame, list[Any]]:
        """A record's game before its first entry, and its entries; raises
        NotationError/PositionError for a malformed frame."""

    @abstractmethod
    def replay(self, record: Mapping[str, Any]) -> ReplayResult:
        """Check a whole game record; the first illegal entry is reported, not raised."""

    @abstractmethod
    def replay_answer(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """The command line's ``replay`` answer (NOTATION.md)."""

    @abstractmethod
    def selfplay(
        self, seed: int, first_dealer: str | None = None, observe: Observer | None = None
    ) -> dict[str, Any]:
        """A complete random legal game as a game record, seeded."""


class PartnersVariant(Variant):
    """A reading of the four-seat game (two pairs): ``dm2023``, ``fr``, ``rulebook``."""

    unknown_seat = (
        "Unknown seat {seat!r} (Y, R, B or G).",
        "Ukendt plads {seat!r} (Y, R, B eller G).",
    )
    unknown_card = ("Unknown card {card!r} (1–13 or J).", "Ukendt kort {card!r} (1–13 eller J).")
    position_hint = (
        "Give the position as Y, R, B, G with four locations each.",
        "Angiv stillingen som Y, R, B, G med fire felter hver.",
    )
    position_example = "Y=YH,YH,YS,Y3 R=RH,RH,RH,RH B=… G=…"
    field_example = "R7"
    move_example = "5: Y3+5"
    counted_in_statistics = True

    def initial_position(self) -> Position:
        return Position.initial()

    def position_from_json(self, data: Mapping[str, Any]) -> Position:
        return Position.from_json(data, self.ruleset)

    def position_of_locs(self, locs: Sequence[int]) -> Position:
        return Position(locs, _checked=True)

    def initial_state(self, first_dealer: str, start: AnyPosition | None = None) -> GameState:
        return GameState.initial(
            first_dealer, self.ruleset, start if isinstance(start, Position) else None
        )

    def canonical_move(self, text: str) -> str:
        return format_move(parse_move(text, self.ruleset.board))

    def moves(self, position: AnyPosition, seat: str, card: str) -> list[Move]:
        return legal_moves(_own(position, Position), seat, card, self.ruleset)

    def play(self, position: AnyPosition, seat: str, move: str) -> tuple[Position, list[Event]]:
        done = apply_move(_own(position, Position), seat, move, self.ruleset)
        return done.position, list(done.events)

    def apply_answer(self, position: AnyPosition, seat: str, move: Any) -> dict[str, Any]:
        if isinstance(move, str) and move.strip().startswith("X:"):
            parsed: Move | Discard = parse_discard(move.strip())
        else:
            parsed = parse_move(move, self.ruleset.board)
        try:
            applied = apply_move(_own(position, Position), seat, parsed, self.ruleset)
        except (IllegalMoveError, NotationError) as e:
            return {"ok": False, "error": e.to_json()}
        return {
            "ok": True,
            "position": applied.position.to_json(),
            "events": [e.to_json() for e in applied.events],
        }

    def remaining_distance(self, position: AnyPosition) -> dict[str, Any]:
        return four_seat_distance(_own(position, Position), self.ruleset)

    def team_standing(self, position: AnyPosition) -> tuple[int, int, int, int]:
        return four_seat_standing(_own(position, Position), self.ruleset)

    def adjudicate(self, position: AnyPosition) -> dict[str, Any]:
        return four_seat_adjudicate(_own(position, Position), self.ruleset)

    def parse_judge_entry(self, text: str) -> JudgeEntry:
        return read_four_seat_entry(text)

    def read_game(self, record: Mapping[str, Any]) -> tuple[AnyGame, list[Any]]:
        _, game, moves = read_record(record, self.ruleset)
        return game, moves

    def replay(self, record: Mapping[str, Any]) -> ReplayResult:
        return replay_four_seat(record, self.ruleset)

    def replay_answer(self, record: Mapping[str, Any]) -> dict[str, Any]:
        return replay_four_seat(record, None).to_json()

    def selfplay(
        self, seed: int, first_dealer: str | None = None, observe: Observer | None = None
    ) -> dict[str, Any]:
        return play_game(seed, self.ruleset, first_dealer, observe)


class DuoVariant(Variant):
    """Partners DUO (docs/rulesets/duo.md): two players, singles, its own engine (:mod:`.duo`)."""

    unknown_seat = (
        "Unknown DUO player {seat!r} (Y or R).",
        "Ukendt DUO-spiller {seat!r} (Y eller R).",
    )
    unknown_card = ("Unknown DUO card {card!r}.", "Ukendt DUO-kort {card!r}.")
    position_hint = (
        "Give the DUO position as YK, RK, YO, RO with three locations each.",
        "Angiv DUO-stillingen som YK, RK, YO, RO med tre felter hver.",
    )
    position_example = "YK=YKH,YKH,YK3 RK=RKH,RKH,RKS YO=… RO=…"
    field_example = "RO7"
    move_example = "5: YK3+5"
    counted_in_statistics = False

    def initial_position(self) -> DuoPosition:
        return DuoPosition.initial(self.ruleset.board_fields)

    def position_from_json(self, data: Mapping[str, Any]) -> DuoPosition:
        return DuoPosition.from_json(data, self.ruleset.board_fields)

    def position_of_locs(self, locs: Sequence[int]) -> DuoPosition:
        return DuoPosition(tuple(locs), self.ruleset.board_fields)

    def initial_state(self, first_dealer: str, start: AnyPosition | None = None) -> DuoState:
        return DuoState.initial(
            first_dealer, self.ruleset, start if isinstance(start, DuoPosition) else None
        )

    def canonical_move(self, text: str) -> str:
        return str(duo.parse_move(text, self.ruleset.board_fields))

    def moves(self, position: AnyPosition, seat: str, card: str) -> list[duo.DuoMove]:
        return duo.legal_moves(_own(position, DuoPosition), seat, card)

    def play(self, position: AnyPosition, seat: str, move: str) -> tuple[DuoPosition, list[Event]]:
        applied = duo.apply_move(_own(position, DuoPosition), seat, move)
        return applied.position, [Event(e["type"], e["colour"], e["at"]) for e in applied.events]

    def apply_answer(self, position: AnyPosition, seat: str, move: Any) -> dict[str, Any]:
        parsed: duo.DuoMove | str = move
        if not (isinstance(move, str) and move.strip().startswith("X:")):
            parsed = duo.parse_move(move, self.ruleset.board_fields)
        try:
            applied = duo.apply_move(_own(position, DuoPosition), seat, parsed)
        except IllegalMoveError as e:
            return {"ok": False, "error": e.to_json()}
        return {"ok": True, "position": applied.position.to_json(), "events": applied.events}

    def remaining_distance(self, position: AnyPosition) -> dict[str, Any]:
        return duo_distance(_own(position, DuoPosition))

    def team_standing(self, position: AnyPosition) -> tuple[int, int, int, int]:
        own = _own(position, DuoPosition)
        return standing_of(duo_adjudicate(own), duo_distance(own))

    def adjudicate(self, position: AnyPosition) -> dict[str, Any]:
        return duo_adjudicate(_own(position, DuoPosition))

    def parse_judge_entry(self, text: str) -> JudgeEntry:
        return read_duo_entry(text, self.ruleset)

    def read_game(self, record: Mapping[str, Any]) -> tuple[AnyGame, list[Any]]:
        return read_duo_record(record, self.ruleset)

    def replay(self, record: Mapping[str, Any]) -> ReplayResult:
        return replay_duo(record, self.ruleset)

    def replay_answer(self, record: Mapping[str, Any]) -> dict[str, Any]:
        return duo.replay(record, self.ruleset).to_json()

    def selfplay(
        self, seed: int, first_dealer: str | None = None, observe: Observer | None = None
    ) -> dict[str, Any]:
        return duo_selfplay_game(seed, self.ruleset, first_dealer, observe)


_P = TypeVar("_P", Position, DuoPosition)


def _own(position: AnyPosition, kind: type[_P]) -> _P:
    """``position`` if it is of the variant's own kind; else a PositionError-like refusal."""
    if not isinstance(position, kind):
        raise NotationError(
            "N",
            f"This position is not one of the ruleset's ({kind.__name__} expected).",
            f"Stillingen hører ikke til regelsættet ({kind.__name__} forventet).",
        )
    return position


VARIANTS: dict[str, Variant] = {}
"""Every ruleset by name, in the order offered to people (``dm2023`` first)."""


def register_variant(variant: Variant) -> Variant:
    """Add ``variant`` to :data:`VARIANTS` under its name (the one place a ruleset goes)."""
    VARIANTS[variant.name] = variant
    return variant


def find_variant(name: str) -> Variant:
    """The variant called ``name``; ``ValueError`` for an unknown name."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown ruleset {name!r}; known: {sorted(VARIANTS)}") from None


def variant_of(ruleset: Ruleset) -> Variant:
    """The variant playing ``ruleset``: the registered one, or one of the same
    kind for a ruleset whose settings differ (``dataclasses.replace`` of a
    registered one, e.g. an event's own adjudication order)."""
    registered = find_variant(ruleset.name)
    if registered.ruleset is ruleset:
        return registered
    return type(registered)(ruleset)


def replay(record: Mapping[str, Any], ruleset: Ruleset | None = None) -> ReplayResult:
    """Check a whole game record (NOTATION.md) and report the first illegal entry.

    ``ruleset`` defaults to ``record["ruleset"]``; every ruleset answers with
    a :class:`~.game.ReplayResult` (a DUO record's position is a
    ``DuoPosition``, its state a ``DuoState``). A malformed record frame
    (missing fields, bad start position) raises NotationError/PositionError;
    an unreadable or illegal entry is reported in ``first_error``.
    """
    if ruleset is None:
        name = record.get("ruleset") if isinstance(record, Mapping) else None
        if not (isinstance(name, str) and name in VARIANTS):
            return replay_four_seat(record, None)  # refuses the frame: it names no ruleset
        ruleset = VARIANTS[name].ruleset
    return variant_of(ruleset).replay(record)


def record_game(record: Mapping[str, Any]) -> tuple[AnyGame, list[Any]]:
    """The game of a record of any ruleset (``record["ruleset"]``) before its first
    entry, and its entries; raises NotationError/PositionError for a malformed frame."""
    name = record.get("ruleset") if isinstance(record, Mapping) else None
    if not (isinstance(name, str) and name in VARIANTS):
        _, game, moves = read_record(record, None)  # refuses the frame: it names no ruleset
        return game, moves
    return VARIANTS[name].read_game(record)


def selfplay_game(
    seed: int, ruleset: Ruleset = DM2023, first_dealer: str | None = None
) -> dict[str, Any]:
    """A complete random legal game to a win, as a NOTATION.md game record.

    Players are named ``"Bot Y"`` … (the ruleset's seats). The first dealer
    is drawn (D7) unless given.
    """
    return variant_of(ruleset).selfplay(seed, first_dealer)


register_variant(PartnersVariant(DM2023))
register_variant(PartnersVariant(RULEBOOK))
register_variant(PartnersVariant(FR))
register_variant(DuoVariant(DUO))
