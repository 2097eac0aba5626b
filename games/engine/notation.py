"""Moves and game-record entries as text (NOTATION.md "Moves").

``parse_move`` reads a move, ``format_move`` (and ``str(move)``) writes its
canonical form; the two round-trip. Internally a step is ``(location id,
signed steps)``; codes are produced only here.
"""

from __future__ import annotations

import re
from typing import Final

from .board import CARDS, LID, SEATS
from .errors import NotationError
from .rulebook_board import RB_CODES, RB_LID

KIND_IN: Final = "in"
KIND_STEPS: Final = "steps"
KIND_SWAP: Final = "swap"

_CARD_ORDER: Final = {c: i for i, c in enumerate(CARDS)}
_LOC = r"[YRBG](?:H|S|M[1-4]|1[0-4]|[1-9])"
_STEP_RE: Final = re.compile(rf"^({_LOC})([+-])(\d{{1,2}})(?:>({_LOC}))?$")
_SWAP_RE: Final = re.compile(rf"^({_LOC})<>({_LOC})$")
_RB_LOC = r"[YRBG](?:H|S|M[1-4]|1[0-5]|[1-9])"
_RB_STEP_RE: Final = re.compile(rf"^({_RB_LOC})([+-])(\d{{1,2}})(?:>({_RB_LOC}))?$")
_RB_SWAP_RE: Final = re.compile(rf"^({_RB_LOC})<>({_RB_LOC})$")
_SYNTAX: Final = {
    "dm": (_STEP_RE, _SWAP_RE, LID),
    "rulebook": (_RB_STEP_RE, _RB_SWAP_RE, RB_LID),
}
"""Location syntax per board: the rulebook adds own 15 (``Y15``)."""

Step = tuple[int, int]
"""Internal step: (location id, signed number of steps)."""


def step_text(lid: int, n: int) -> str:
    """Canonical text of one step, e.g. ``Y3+5`` or ``RS-4``."""
    return f"{RB_CODES[lid]}{'+' if n > 0 else '-'}{abs(n)}"


class Move:
    """One move: a card and what it does.

    ``kind`` is ``"in"`` (enter a pawn), ``"steps"`` (one step, or several
    for a 7) or ``"swap"``. ``steps`` lists ``(location code, signed steps)``
    in the order played; ``swap`` the two locations in location order.
    Equality and hashing use the canonical text.
    """

    __slots__ = ("_text", "card", "dests", "isteps", "iswap", "kind")

    card: str
    kind: str
    isteps: tuple[Step, ...]
    iswap: tuple[int, int] | None
    dests: tuple[int, ...] | None
    _text: str

    def __init__(
        self,
        card: str,
        kind: str,
        steps: tuple[tuple[str, int], ...] = (),
        swap: tuple[str, str] | None = None,
    ) -> None:
        if card not in CARDS:
            raise NotationError.of("syntax", what=card, why="unknown card", why_da="ukendt kort")
        if kind not in (KIND_IN, KIND_STEPS, KIND_SWAP):
            raise NotationError.of(
                "syntax", what=kind, why="unknown kind of move", why_da="ukendt slags træk"
            )
        try:
            isteps = tuple((LID[loc], int(n)) for loc, n in steps)
            iswap = None if swap is None else _ordered(LID[swap[0]], LID[swap[1]])
        except KeyError as e:
            raise NotationError.of(
                "syntax", what=str(e.args[0]), why="unknown location", why_da="ukendt felt"
            ) from None
        if (kind == KIND_STEPS) != bool(isteps) or (kind == KIND_SWAP) != (iswap is not None):
            raise NotationError.of(
                "syntax",
                what=kind,
                why="the move's parts do not match its kind",
                why_da="trækkets dele passer ikke til slagsen",
            )
        _init(self, card, kind, isteps, iswap, None)

    @property
    def steps(self) -> tuple[tuple[str, int], ...]:
        """``(location code, signed steps)`` in the order played."""
        return tuple((RB_CODES[lid], n) for lid, n in self.isteps)

    @property
    def swap(self) -> tuple[str, str] | None:
        """The two swapped locations in location order, or None."""
        if self.iswap is None:
            return None
        return RB_CODES[self.iswap[0]], RB_CODES[self.iswap[1]]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Move({self._text!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._text == other._text

    def __hash__(self) -> int:
        return hash(self._text)

    def sort_key(self) -> tuple[int, tuple[tuple[int, int], ...]]:
        """Canonical order: ``in`` first, then steps, then swaps, by location order."""
        if self.kind == KIND_IN:
            return (0, ())
        if self.iswap is not None:
            return (2, (self.iswap,))
        return (1, self.isteps)


def _ordered(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a <= b else (b, a)


def _text(card: str, kind: str, isteps: tuple[Step, ...], iswap: tuple[int, int] | None) -> str:
    if kind == KIND_IN:
        return card + ": in"
    if iswap is not None:
        return f"{card}: {RB_CODES[iswap[0]]}<>{RB_CODES[iswap[1]]}"
    return card + ": " + " ".join(step_text(lid, n) for lid, n in isteps)


def _init(
    m: Move,
    card: str,
    kind: str,
    isteps: tuple[Step, ...],
    iswap: tuple[int, int] | None,
    dests: tuple[int, ...] | None,
    text: str | None = None,
) -> None:
    m.card = card
    m.kind = kind
    m.isteps = isteps
    m.iswap = iswap
    m.dests = dests
    m._text = text if text is not None else _text(card, kind, isteps, iswap)


def make_move(
    card: str,
    kind: str,
    isteps: tuple[Step, ...] = (),
    iswap: tuple[int, int] | None = None,
    text: str | None = None,
) -> Move:
    """Build a Move from internal parts without validation (engine use)."""
    m = _new(Move)
    m.card = card
    m.kind = kind
    m.isteps = isteps
    m.iswap = iswap
    m.dests = None
    m._text = text if text is not None else _text(card, kind, isteps, iswap)
    return m


_new = object.__new__


def format_move(move: Move) -> str:
    """The canonical text of a move (NOTATION.md)."""
    return move._text


def _syntax(text: object, why: str, why_da: str) -> NotationError:
    return NotationError.of("syntax", what=text, why=why, why_da=why_da)


_MOVE_CACHE: dict[str, Move] = {}
_RB_MOVE_CACHE: dict[str, Move] = {}


def parse_move(text: str, board: str = "dm") -> Move:
    """Read a move such as ``"5: Y3+5"``, ``"7: Y3+5 RM3+2"``, ``"J: Y3<>R10"``.

    Extra spaces are tolerated, a swap may name its locations in either
    order, and a step may carry ``>DEST`` (checked when the move is applied).
    Raises :class:`NotationError` (rule ``N``) for anything unreadable.
    A readable move that its card cannot make is left to ``apply_move``.
    ``board`` is the ruleset's board: ``"rulebook"`` also reads own 15 (``Y15``).
    """
    cache = _RB_MOVE_CACHE if board == "rulebook" else _MOVE_CACHE
    cached = cache.get(text) if isinstance(text, str) else None
    if cached is not None:
        return cached
    move = _parse_move(text, board)
    if len(cache) > 100_000:
        cache.clear()
    cache[text] = move
    return move


def _parse_move(text: object, board: str = "dm") -> Move:
    if not isinstance(text, str):
        raise _syntax(text, "a move is a text like '5: Y3+5'", "et træk er en tekst som '5: Y3+5'")
    parts = text.split()
    if len(parts) < 2 or not parts[0].endswith(":"):
        raise _syntax(
            text,
            "expected 'card: action', e.g. '5: Y3+5'",
            "forventede 'kort: handling', f.eks. '5: Y3+5'",
        )
    card = parts[0][:-1]
    if card == "X":
        raise _syntax(
            text,
            "a discard ('X: …') is a game-record entry, not a move",
            "et afkast ('X: …') er en post i spillet, ikke et træk",
        )
    if card not in _CARD_ORDER:
        raise _syntax(
            text,
            f"unknown card {card!r} (cards are 1–13 and J)",
            f"ukendt kort {card!r} (kortene er 1–13 og J)",
        )
    actions = parts[1:]
    step_re, swap_re, lids = _SYNTAX["rulebook" if board == "rulebook" else "dm"]
    if actions == ["in"]:
        return make_move(card, KIND_IN)
    if len(actions) == 1 and "<>" in actions[0]:
        sm = swap_re.match(actions[0])
        if sm is None:
            raise _syntax(
                text,
                "a swap is written 'A<>B' with two locations",
                "et byt skrives 'A<>B' med to felter",
            )
        return make_move(card, KIND_SWAP, iswap=_ordered(lids[sm[1]], lids[sm[2]]))
    steps: list[Step] = []
    dests: list[int] = []
    for a in actions:
        m = step_re.match(a)
        if m is None:
            raise _syntax(
                text,
                f"cannot read the step {a!r} (write e.g. Y3+5 or RS-4)",
                f"kan ikke læse delen {a!r} (skriv f.eks. Y3+5 eller RS-4)",
            )
        n = int(m[3])
        steps.append((lids[m[1]], n if m[2] == "+" else -n))
        dests.append(lids[m[4]] if m[4] else -1)
    move = make_move(card, KIND_STEPS, tuple(steps))
    if any(d >= 0 for d in dests):
        move.dests = tuple(dests)
    return move


class Discard:
    """A discard entry ``X: c1 c2 …`` (RULES D4): the whole hand shown and dropped."""

    __slots__ = ("cards",)

    def __init__(self, cards: tuple[str, ...]) -> None:
        self.cards = tuple(sorted(cards, key=_CARD_ORDER.__getitem__))

    def __str__(self) -> str:
        return "X: " + " ".join(self.cards)

    def __repr__(self) -> str:
        return f"Discard({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Discard) and self.cards == other.cards

    def __hash__(self) -> int:
        return hash(self.cards)


def parse_discard(text: str) -> Discard:
    """Read ``"X: 2 3 9 12"``; raises NotationError."""
    parts = text.split()
    if not parts or parts[0] != "X:" or len(parts) < 2:
        raise _syntax(
            text,
            "a discard is written 'X: ' and the cards shown",
            "et afkast skrives 'X: ' og de viste kort",
        )
    for c in parts[1:]:
        if c not in _CARD_ORDER:
            raise _syntax(text, f"unknown card {c!r}", f"ukendt kort {c!r}")
    return Discard(tuple(parts[1:]))


Entry = tuple[str, "Move | Discard"]

_ENTRY_CACHE: dict[str, tuple[str, Move | Discard]] = {}
_RB_ENTRY_CACHE: dict[str, tuple[str, Move | Discard]] = {}


def parse_entry(text: str, board: str = "dm") -> tuple[str, Move | Discard]:
    """Read a game-record entry ``"Y 5: Y3+5"`` or ``"R X: 2 3 5 6"`` into (seat, action).

    Raises :class:`NotationError` if it cannot be read. ``board`` as for
    :func:`parse_move`.
    """
    cache = _RB_ENTRY_CACHE if board == "rulebook" else _ENTRY_CACHE
    cached = cache.get(text) if isinstance(text, str) else None
    if cached is not None:
        return cached
    if not isinstance(text, str):
        raise _syntax(
            text, "an entry is a text like 'Y 5: Y3+5'", "en post er en tekst som 'Y 5: Y3+5'"
        )
    seat, _, rest = text.strip().partition(" ")
    if seat not in SEATS:
        raise _syntax(
            text,
            "an entry starts with the seat Y, R, B or G",
            "en post starter med pladsen Y, R, B eller G",
        )
    action: Move | Discard
    rest = rest.strip()
    action = parse_discard(rest) if rest.startswith("X:") else parse_move(rest, board)
    if len(cache) > 100_000:
        cache.clear()
    result = (seat, action)
    cache[text] = result
    return result
