"""Partners DUO (docs/rulesets/duo.md): two players, four home areas, 3 pawns each.

DUO has its own players, pawns and cards, so it has its own small engine
beside the four-seat one: :class:`DuoPosition`, :class:`DuoMove`,
:func:`legal_moves`, :func:`apply_move`, :func:`replay`, :func:`selfplay_game`
and :func:`remaining_distance`. Rule ids are those of the DUO reading.

Areas, clockwise: ``YK`` (yellow knob pawns), ``RK``, ``YO`` (yellow hole
pawns), ``RO``. Player ``Y`` owns ``YK`` and ``YO``, player ``R`` owns ``RK``
and ``RO`` (B1). Location codes: ``YKH`` home, ``YKS`` start field,
``YK1``…``YK{n}`` the area's track fields, ``YKM1``…``YKM3`` goal circles
(``M1`` innermost). Internally a location is ``area * (n + 5) + k`` with k = 0
(H), 1 (S), 2..n+1 (fields), n+2..n+4 (M1..M3); a pawn of area a has a path
index: 0 its start field, 1..4n the track, 4n+1..4n+3 = M3, M2, M1.
Plain code: the split-4 is searched by playing parts on copies.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

from .errors import IllegalMoveError, NotationError, PositionError
from .ruleset import Ruleset

AREAS: Final = ("YK", "RK", "YO", "RO")
"""The four home areas clockwise (B1)."""
PLAYERS: Final = ("Y", "R")
PLAYER_EN: Final = {"Y": "yellow", "R": "red"}
PLAYER_DA: Final = {"Y": "gul", "R": "rød"}
PAWNS: Final = 3
"""Pawns per area (S2): three knob pawns and three hole pawns per player."""
GOALS: Final = 3
"""Goal circles per area (F1): innermost, middle, outermost ring."""

ENTER: Final = frozenset(("1", "6", "8"))
STEPS: Final = {
    "1": (1,),
    "2": (2, -2),
    "3": (3,),
    "5": (5,),
    "6": (6,),
    "7": (7,),
    "8": (8,),
    "9": (9,),
    "10": (10,),
    "12": (12,),
}
"""Single-pawn step counts per card (C2–C7)."""


def _illegal(rule: str, en: str, da: str) -> IllegalMoveError:
    return IllegalMoveError(rule, en, da)


def _syntax(what: object, why: str, why_da: str) -> NotationError:
    return NotationError.of("syntax", what=what, why=why, why_da=why_da)


# --- the board ---------------------------------------------------------------


class Layout:
    """The DUO board for ``fields`` track fields per area (B2, a ruleset setting)."""

    def __init__(self, fields: int) -> None:
        n = fields
        self.fields = n
        self.block = n + 5
        self.track = 4 * n
        self.last = 4 * n + 3
        self.nloc = 4 * self.block
        codes = []
        for name in AREAS:
            codes += [name + "H", name + "S", *(f"{name}{j}" for j in range(1, n + 1))]
            codes += [f"{name}M{m}" for m in range(1, GOALS + 1)]
        self.codes: tuple[str, ...] = tuple(codes)
        self.lid = {c: i for i, c in enumerate(codes)}
        self.path = tuple(self._path(a) for a in range(4))
        pidx = []
        for a in range(4):
            t = [-2] * self.nloc
            t[self.home(a)] = -1
            for p, lid in enumerate(self.path[a]):
                t[lid] = p
            pidx.append(tuple(t))
        self.pidx: tuple[tuple[int, ...], ...] = tuple(pidx)
        self.is_field = tuple(2 <= i % self.block <= n + 1 for i in range(self.nloc))
        self.is_goal = tuple(i % self.block >= n + 2 for i in range(self.nloc))

    def home(self, a: int) -> int:
        return a * self.block

    def start(self, a: int) -> int:
        return a * self.block + 1

    def goal(self, a: int, m: int) -> int:
        """Goal circle ``M{m}`` of area a (1 innermost)."""
        return a * self.block + self.fields + 1 + m

    def ring(self, r: int) -> int:
        """Track field with ring index r (0 = ``YK1``)."""
        r %= self.track
        return (r // self.fields) * self.block + 2 + r % self.fields

    def _path(self, a: int) -> tuple[int, ...]:
        p = [self.start(a)]
        p += [self.ring(a * self.fields + i) for i in range(self.track)]
        p += [self.goal(a, m) for m in (3, 2, 1)]
        return tuple(p)

    def ring_of(self, a: int, p: int) -> int:
        """Ring index of path index p (1..4n) of area a."""
        return (a * self.fields + p - 1) % self.track


@lru_cache(maxsize=8)
def layout(fields: int) -> Layout:
    """The (cached) board of a field count."""
    return Layout(fields)


# --- positions -----------------------------------------------------------------


def _bad(rule: str, why: str, why_da: str) -> PositionError:
    err = PositionError.of("bad_position", why=why, why_da=why_da)
    err.rule = rule
    return err


class DuoPosition:
    """An immutable DUO position: 12 pawns, 3 per area, sorted within an area."""

    __slots__ = ("fields", "locs")

    def __init__(self, locs: Sequence[int], fields: int) -> None:
        self.fields = fields
        self.locs: tuple[int, ...] = tuple(
            x for a in range(4) for x in sorted(locs[PAWNS * a : PAWNS * a + PAWNS])
        )

    @classmethod
    def initial(cls, fields: int) -> DuoPosition:
        """All 12 pawns at home (S2)."""
        lay = layout(fields)
        return cls([lay.home(a) for a in range(4) for _ in range(PAWNS)], fields)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], fields: int) -> DuoPosition:
        """Read ``{"YK": [3 codes], "RK": …, "YO": …, "RO": …}``; raises PositionError."""
        lay = layout(fields)
        if not isinstance(data, Mapping) or set(data) != set(AREAS):
            raise _bad(
                "N",
                "a DUO position is an object with keys YK, RK, YO, RO",
                "en DUO-stilling er et objekt med nøglerne YK, RK, YO, RO",
            )
        locs: list[int] = []
        for a, name in enumerate(AREAS):
            pawns = data[name]
            if not isinstance(pawns, list | tuple) or len(pawns) != PAWNS:
                raise _bad("S2", f"{name} must list 3 pawns", f"{name} skal have 3 brikker")
            for code in pawns:
                lid = lay.lid.get(code) if isinstance(code, str) else None
                if lid is None:
                    raise _bad("B3", f"unknown location {code!r}", f"ukendt felt {code!r}")
                if not lay.is_field[lid] and lid // lay.block != a:
                    raise _bad(
                        "B3",
                        f"a {name} pawn on {code}, which belongs to another area",
                        f"en {name}-brik på {code}, som hører til et andet område",
                    )
                locs.append(lid)
        owner: dict[int, int] = {}
        for i, lid in enumerate(locs):
            a = i // PAWNS
            prev = owner.setdefault(lid, a)
            if lay.is_field[lid] and prev != a:
                raise _bad(
                    "T1",
                    f"two areas on field {lay.codes[lid]}",
                    f"to områder på felt {lay.codes[lid]}",
                )
            if lay.is_goal[lid] and locs.count(lid) > 1:
                raise _bad(
                    "F1",
                    f"two pawns on goal circle {lay.codes[lid]}",
                    f"to brikker på målcirkel {lay.codes[lid]}",
                )
        return cls(locs, fields)

    def to_json(self) -> dict[str, list[str]]:
        """The notation form, each area's pawns in location order."""
        codes = layout(self.fields).codes
        return {
            name: [codes[x] for x in self.locs[PAWNS * a : PAWNS * a + PAWNS]]
            for a, name in enumerate(AREAS)
        }

    def winner(self) -> str | None:
        """The player with all six pawns locked (W1), else None."""
        b = _Board(self.locs, layout(self.fields))
        for s in (0, 1):
            if b.locked(s) == GOALS and b.locked(s + 2) == GOALS:
                return PLAYERS[s]
        return None

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, DuoPosition)
            and self.locs == other.locs
            and self.fields == other.fields
        )

    def __hash__(self) -> int:
        return hash(self.locs)

    def __repr__(self) -> str:
        return f"DuoPosition({self.to_json()!r})"


# --- moves ---------------------------------------------------------------------


@dataclass(frozen=True)
class DuoMove:
    """A DUO move: ``1: in YK``, ``5: YK3+5``, ``2: RO4-2``, ``4: YK3+1 YK5+3``,
    ``9: YK3<>RO7``. Steps name pawns by location id (of the ruleset's layout)."""

    card: str
    text: str
    area: int = -1
    steps: tuple[tuple[int, int], ...] = ()
    swap: tuple[int, int] | None = None

    def __str__(self) -> str:
        return self.text


_STEP = re.compile(r"^((?:YK|RK|YO|RO)(?:H|S|M[1-3]|\d{1,2}))([+-])(\d{1,2})$")
_LOC = r"(?:YK|RK|YO|RO)(?:S|M[1-3]|\d{1,2})"
_SWAP = re.compile(rf"^({_LOC})<>({_LOC})$")


def _step_text(lay: Layout, lid: int, n: int) -> str:
    return f"{lay.codes[lid]}{'+' if n > 0 else '-'}{abs(n)}"


_MOVES: dict[tuple[str, int], DuoMove] = {}


def parse_move(text: str, fields: int) -> DuoMove:
    """Read a DUO move (docs/rulesets/duo.md "Notation"); raises NotationError."""
    key = (text, fields) if isinstance(text, str) else None
    known = _MOVES.get(key) if key is not None else None
    if known is not None:
        return known
    move = _parse_move(text, fields)
    if key is not None:
        if len(_MOVES) > 100_000:
            _MOVES.clear()
        _MOVES[key] = move
    return move


def _parse_move(text: str, fields: int) -> DuoMove:
    lay = layout(fields)
    if not isinstance(text, str):
        raise _syntax(text, "a move is a text like '5: YK3+5'", "et træk skrives som '5: YK3+5'")
    parts = text.split()
    if len(parts) < 2 or not parts[0].endswith(":"):
        raise _syntax(text, "expected 'card: action'", "forventede 'kort: handling'")
    card = parts[0][:-1]
    if card not in STEPS and card != "4":
        raise _syntax(
            text,
            f"unknown DUO card {card!r} (1 2 3 4 5 6 7 8 9 10 12)",
            f"ukendt DUO-kort {card!r} (1 2 3 4 5 6 7 8 9 10 12)",
        )
    acts = parts[1:]
    if len(acts) == 2 and acts[0] == "in" and acts[1] in AREAS:
        return DuoMove(card, f"{card}: in {acts[1]}", area=AREAS.index(acts[1]))
    if len(acts) == 1 and "<>" in acts[0]:
        m = _SWAP.match(acts[0])
        if m is None or m[1] not in lay.lid or m[2] not in lay.lid:
            raise _syntax(text, "a swap is written 'A<>B'", "et byt skrives 'A<>B'")
        x, y = sorted((lay.lid[m[1]], lay.lid[m[2]]))
        return DuoMove(card, f"{card}: {lay.codes[x]}<>{lay.codes[y]}", swap=(x, y))
    steps = []
    for act in acts:
        m = _STEP.match(act)
        if m is None or m[1] not in lay.lid:
            raise _syntax(
                text,
                f"cannot read {act!r} (write e.g. YK3+5, RO4-2 or 'in YK')",
                f"kan ikke læse {act!r} (skriv f.eks. YK3+5, RO4-2 eller 'in YK')",
            )
        n = int(m[3])
        steps.append((lay.lid[m[1]], n if m[2] == "+" else -n))
    text_out = f"{card}: " + " ".join(_step_text(lay, lid, n) for lid, n in steps)
    return DuoMove(card, text_out, steps=tuple(steps))


# --- the rules -------------------------------------------------------------------

_BLOCKED = -100
_CANNOT = -2


class _Board:
    __slots__ = ("cnt", "lay", "locs", "owner")

    def __init__(self, locs: Sequence[int], lay: Layout) -> None:
        self.lay = lay
        self.locs = list(locs)
        self.cnt = [0] * lay.nloc
        self.owner = [-1] * lay.nloc
        for i, lid in enumerate(self.locs):
            self.cnt[lid] += 1
            self.owner[lid] = i // PAWNS

    def copy(self) -> _Board:
        new = _Board.__new__(_Board)
        new.lay, new.locs, new.cnt, new.owner = self.lay, self.locs[:], self.cnt[:], self.owner[:]
        return new

    def locked(self, a: int) -> int:
        n = 0
        while n < GOALS and self.cnt[self.lay.goal(a, n + 1)]:
            n += 1
        return n

    def won(self, s: int) -> bool:
        return self.locked(s) == GOALS and self.locked(s + 2) == GOALS


def _walk(b: _Board, a: int, p: int, n: int, jump: bool) -> int:
    """Path index reached by area a's pawn on path p moving n (negative: back)."""
    lay = b.lay
    cnt = b.cnt
    if n < 0:  # C4: back, over the track only
        r = lay.ring_of(a, p) if p > 0 else (a * lay.fields) % lay.track
        for _ in range(-n):
            if r % lay.fields == 0:
                owner = r // lay.fields
                if owner != a and cnt[lay.start(owner)]:
                    return _BLOCKED - lay.start(owner)
            r = (r - 1) % lay.track
        return (r - a * lay.fields) % lay.track + 1
    pos = p
    d = 1
    moved = p <= lay.track
    path = lay.path[a]
    src = path[p]
    for _ in range(n):
        nxt = pos + d
        if nxt <= lay.track:
            if d < 0:
                return _CANNOT  # F3: turning happens inside the goal area only
            if pos >= 1 and lay.ring_of(a, nxt) % lay.fields == 0:
                owner = lay.ring_of(a, nxt) // lay.fields
                if cnt[lay.start(owner)] and not jump:
                    return _BLOCKED - lay.start(owner)
            pos = nxt
            continue
        if nxt <= lay.last and (not cnt[path[nxt]] or path[nxt] == src):
            pos = nxt
            moved = True
            continue
        # F2: the end of the goal area or a pawn: turn once, inside the goal area
        if d < 0 or pos <= lay.track or not moved:
            return _CANNOT
        d = -1
        nxt = pos - 1
        if nxt <= lay.track or (cnt[path[nxt]] and path[nxt] != src):
            return _CANNOT
        pos = nxt
    return pos


def _land(b: _Board, i: int, a: int, dest: int, events: list[tuple[str, int, int]]) -> None:
    """Put pawn i of area a (lifted) on ``dest`` with T2."""
    lay = b.lay
    if lay.is_field[dest] and b.cnt[dest] and b.owner[dest] != a:
        oa = b.owner[dest]
        if b.cnt[dest] == 1:
            j = next(k for k in range(oa * PAWNS, oa * PAWNS + PAWNS) if b.locs[k] == dest)
            b.cnt[dest] -= 1
            b.locs[j] = lay.home(oa)
            b.cnt[lay.home(oa)] += 1
            events.append(("hit", oa, dest))
        else:
            b.locs[i] = lay.home(a)
            b.cnt[lay.home(a)] += 1
            events.append(("hit", a, dest))
            return
    b.locs[i] = dest
    b.cnt[dest] += 1
    b.owner[dest] = a
    if lay.is_goal[dest]:
        m = dest % lay.block - lay.fields - 1
        if m <= b.locked(a):
            events.append(("lock", a, dest))


def _movable(b: _Board, a: int) -> list[tuple[int, int]]:
    """(location, path index) of area a's pawns that may move, location order."""
    lay = b.lay
    lc = b.locked(a)
    out = []
    for lid in sorted(set(b.locs[a * PAWNS : a * PAWNS + PAWNS])):
        p = lay.pidx[a][lid]
        if p >= 0 and p <= lay.last - lc:
            out.append((lid, p))
    return out


def _swappable(b: _Board) -> list[int]:
    lay = b.lay
    return sorted({lid for lid in b.locs if lay.is_field[lid] and b.cnt[lid] == 1})


def _gen(b: _Board, s: int, card: str, first: bool = False) -> list[DuoMove]:
    lay = b.lay
    out: list[DuoMove] = []
    if card == "4":
        return _gen_split(b, s, first)
    areas = (s, s + 2)
    if card in ENTER:
        for a in areas:
            if b.cnt[lay.home(a)]:
                out.append(DuoMove(card, f"{card}: in {AREAS[a]}", area=a))
    for a in areas:
        for lid, p in _movable(b, a):
            for n in STEPS[card]:
                if n < 0 and p > lay.track:
                    continue  # F4: never back in the goal area
                if _walk(b, a, p, n, card == "5") >= 0:
                    out.append(
                        DuoMove(card, f"{card}: {_step_text(lay, lid, n)}", steps=((lid, n),))
                    )
    if card == "9":
        singles = _swappable(b)
        for x, u in enumerate(singles):
            for v in singles[x + 1 :]:
                out.append(DuoMove(card, f"9: {lay.codes[u]}<>{lay.codes[v]}", swap=(u, v)))
    if first:
        return out[:1]
    return out


def _gen_split(b: _Board, s: int, first: bool) -> list[DuoMove]:
    """C6: 4 forward steps over pawns of one area; the rest to the other area only
    after that area's last pawn locks."""
    lay = b.lay
    out: list[DuoMove] = []

    def rec(
        board: _Board,
        a: int,
        rem: int,
        moved: frozenset[int],
        done: tuple[tuple[int, int], ...],
        switched: bool,
    ) -> bool:
        groups: dict[int, int] = {}
        lc = board.locked(a)
        for i in range(a * PAWNS, a * PAWNS + PAWNS):
            lid = board.locs[i]
            p = lay.pidx[a][lid]
            if i not in moved and 0 <= p <= lay.last - lc and lid not in groups:
                groups[lid] = i
        for lid in sorted(groups):
            i = groups[lid]
            p = lay.pidx[a][lid]
            for k in range(1, rem + 1):
                d = _walk(board, a, p, k, False)
                if d <= _BLOCKED:
                    break
                if d < 0:
                    continue
                nb = board.copy()
                nb.cnt[lid] -= 1
                _land(nb, i, a, lay.path[a][d], [])
                parts = (*done, (lid, k))
                if k == rem or nb.won(s):
                    text = "4: " + " ".join(_step_text(lay, x, n) for x, n in parts)
                    out.append(DuoMove("4", text, steps=parts))
                    if first:
                        return True
                    continue
                if nb.locked(a) == GOALS and not switched:
                    found = rec(nb, (a + 2) % 4, rem - k, frozenset(), parts, True)
                else:
                    found = rec(nb, a, rem - k, moved | {i}, parts, switched)
                if found and first:
                    return True
        return False

    for a in (s, s + 2):
        if rec(b.copy(), a, 4, frozenset(), (), False) and first:
            break
    return out


def _pawn(b: _Board, s: int, lid: int, moved: set[int], area: int | None) -> tuple[int, int]:
    lay = b.lay
    code = lay.codes[lid]
    if not b.cnt[lid]:
        raise _illegal("S3", f"There is no pawn on {code}.", f"Der står ingen brik på {code}.")
    a = b.owner[lid] if lay.is_field[lid] else lid // lay.block
    if a % 2 != s:
        raise _illegal(
            "S3",
            f"The pawn on {code} belongs to the other player.",
            f"Brikken på {code} tilhører den anden spiller.",
        )
    if area is not None and a != area:
        raise _illegal(
            "C6",
            "The 4 is split over pawns of one home area; the rest goes to the other area "
            "only after the first area's last pawn has locked.",
            "4'eren deles mellem brikker fra ét hjemområde; resten går først til det andet "
            "område, når det første områdes sidste brik er låst.",
        )
    if lid == lay.home(a):
        raise _illegal(
            "C3",
            f"A pawn at home ({code}) comes into play only with a start card (1, 6, 8).",
            f"En brik hjemme ({code}) kommer kun i spil med et startkort (1, 6, 8).",
        )
    p = lay.pidx[a][lid]
    if p > lay.last - b.locked(a):
        raise _illegal(
            "F1",
            f"The pawn on {code} is locked in its goal and never moves again.",
            f"Brikken på {code} er låst i mål og flyttes aldrig igen.",
        )
    for i in range(a * PAWNS, a * PAWNS + PAWNS):
        if b.locs[i] == lid and i not in moved:
            return i, a
    raise _illegal(
        "C6",
        f"Each pawn moves at most once in a split 4 ({code}).",
        f"Hver brik flyttes højst én gang med en delt 4'er ({code}).",
    )


def _do_step(
    b: _Board,
    s: int,
    lid: int,
    n: int,
    jump: bool,
    moved: set[int],
    area: int | None,
    events: list[tuple[str, int, int]],
) -> int:
    lay = b.lay
    i, a = _pawn(b, s, lid, moved, area)
    p = lay.pidx[a][lid]
    if n < 0 and p > lay.track:
        raise _illegal(
            "F4",
            "A pawn in the goal area is never moved backward.",
            "En brik i målområdet flyttes aldrig baglæns.",
        )
    d = _walk(b, a, p, n, jump)
    if d <= _BLOCKED:
        at = lay.codes[_BLOCKED - d]
        raise _illegal(
            "T3",
            f"The way is blocked: pawns stand on the start field {at}; only the 5 jumps it.",
            f"Vejen er spærret: der står brikker på startfeltet {at}; kun 5'eren springer over.",
        )
    if d < 0:
        raise _illegal(
            "F2",
            f"The pawn on {lay.codes[lid]} cannot make {abs(n)} steps: goal circles cannot be "
            "jumped, and it turns only inside its goal area.",
            f"Brikken på {lay.codes[lid]} kan ikke flytte {abs(n)} felter: målcirkler kan ikke "
            "springes over, og den vender kun inde i sit målområde.",
        )
    b.cnt[lid] -= 1
    _land(b, i, a, lay.path[a][d], events)
    moved.add(i)
    return a


def _execute(b: _Board, s: int, move: DuoMove) -> list[tuple[str, int, int]]:
    lay = b.lay
    events: list[tuple[str, int, int]] = []
    card = move.card
    if move.swap is not None:
        if card != "9":
            raise _illegal("C5", "Only the 9 swaps two pawns.", "Kun 9'eren bytter to brikker.")
        x, y = move.swap
        singles = _swappable(b)
        for lid in (x, y):
            if lid not in singles:
                raise _illegal(
                    "C5",
                    f"The pawn on {lay.codes[lid]} cannot be swapped: pawns at home, in the goal, "
                    "on a start field or two of one area on a field are safe.",
                    f"Brikken på {lay.codes[lid]} kan ikke byttes: brikker hjemme, i mål, på et "
                    "startfelt eller to fra samme område på et felt er fredede.",
                )
        if x == y:
            raise _illegal("C5", "Swap two different pawns.", "Byt to forskellige brikker.")
        i, j = b.locs.index(x), b.locs.index(y)
        b.locs[i], b.locs[j] = y, x
        b.owner[x], b.owner[y] = b.owner[y], b.owner[x]
        return events
    if move.area >= 0:
        a = move.area
        if card not in ENTER:
            raise _illegal(
                "C3",
                "Only a start card (1, 6, 8) brings a pawn into play.",
                "Kun et startkort (1, 6, 8) bringer en brik i spil.",
            )
        if a % 2 != s:
            raise _illegal(
                "S3",
                f"{AREAS[a]} belongs to the other player.",
                f"{AREAS[a]} tilhører den anden spiller.",
            )
        if not b.cnt[lay.home(a)]:
            raise _illegal(
                "C3", f"No pawn of {AREAS[a]} is at home.", f"Ingen brik fra {AREAS[a]} er hjemme."
            )
        i = b.locs.index(lay.home(a), a * PAWNS)
        b.cnt[lay.home(a)] -= 1
        _land(b, i, a, lay.start(a), events)
        return events
    if card == "4":
        _split(b, s, move, events)
        return events
    (lid, n), *more = move.steps
    if more or n not in STEPS[card]:
        raise _illegal(
            "C2",
            f"Card {card} moves one pawn {' or '.join(map(str, STEPS[card]))} steps.",
            f"Kort {card} flytter én brik {' eller '.join(map(str, STEPS[card]))} felter.",
        )
    _do_step(b, s, lid, n, card == "5", set(), None, events)
    return events


def _split(b: _Board, s: int, move: DuoMove, events: list[tuple[str, int, int]]) -> None:
    total = sum(n for _, n in move.steps)
    if any(n < 1 for _, n in move.steps) or total > 4:
        raise _illegal(
            "C6",
            "The 4 is split into forward parts of 1 or more, 4 in all.",
            "4'eren deles i dele fremad på 1 eller flere, 4 i alt.",
        )
    moved: set[int] = set()
    area: int | None = None
    for x, (lid, n) in enumerate(move.steps):
        a = _do_step(b, s, lid, n, False, moved, area, events)
        area = a
        if b.won(s):
            if x != len(move.steps) - 1:
                raise IllegalMoveError.of("w1", team=PLAYERS[s])
            return
        if b.locked(a) == GOALS and x < len(move.steps) - 1:
            area = (a + 2) % 4
            moved = set()
    if total != 4:
        raise _illegal(
            "C6",
            f"All 4 steps must be used (these parts make {total}).",
            f"Alle 4 felter skal bruges (disse dele giver {total}).",
        )


# --- public functions ---------------------------------------------------------------


def _player(seat: str) -> int:
    if seat not in PLAYERS:
        raise _syntax(seat, "the DUO players are Y and R", "DUO-spillerne er Y og R")
    return PLAYERS.index(seat)


def legal_moves(position: DuoPosition, seat: str, card: str) -> list[DuoMove]:
    """Every legal move of ``card`` for player ``seat`` (``"Y"``/``"R"``), canonical order."""
    s = _player(seat)
    if card not in STEPS and card != "4":
        raise _syntax(card, "DUO cards are 1–10 and 12", "DUO-kortene er 1–10 og 12")
    if position.winner() is not None:
        return []
    return _gen(_Board(position.locs, layout(position.fields)), s, card)


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
    b = _Board(position.locs, lay)
    if isinstance(move, str) and move.strip().startswith("X:"):
        cards = _discard_cards(move.strip())
        for card in dict.fromkeys(cards):
            found = _gen(b, s, card, first=True)
            if found:
                raise _discard_refused(seat, card, str(found[0]))
        return DuoApplied(position, [])
    m = parse_move(move, position.fields) if isinstance(move, str) else move
    events = _execute(b, s, m)
    return DuoApplied(DuoPosition(b.locs, position.fields), _events_json(lay, events))


def _discard_cards(text: str) -> tuple[str, ...]:
    cards = tuple(text.split()[1:])
    if not cards or any(c not in STEPS and c != "4" for c in cards):
        raise _syntax(
            text,
            "a discard is 'X: ' and the DUO cards shown",
            "et afkast er 'X: ' og de viste DUO-kort",
        )
    return cards


def _discard_refused(seat: str, card: str, move: str) -> IllegalMoveError:
    return _illegal(
        "D3",
        f"Player {PLAYER_EN[seat]} may not discard: card {card} can be played ({move}).",
        f"Spiller {PLAYER_DA[seat]} må ikke smide kortene: kort {card} kan spilles ({move}).",
    )


def remaining_distance(position: DuoPosition) -> dict[str, Any]:
    """Steps each pawn still needs to reach its innermost goal circle, per area and
    player (W2 Decision): home 4n+4, start field 4n+3, locked 0."""
    lay = layout(position.fields)
    b = _Board(position.locs, lay)
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
        self.board = _Board((start or DuoPosition.initial(ruleset.board_fields)).locs, self.lay)
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
            raise _illegal(
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
            raise _illegal(
                "D5",
                f"Card {card} has already been played {self.seen.get(card, 0)} times since "
                "the shuffle.",
                f"Kort {card} er allerede spillet {self.seen.get(card, 0)} gange siden blandingen.",
            )

    def entry(self, text: str) -> list[tuple[str, int, int]]:
        """Check and play one entry (``"Y 5: YK3+5"`` or ``"R X: 3 7"``)."""
        if not isinstance(text, str) or text[:2] not in ("Y ", "R "):
            raise _syntax(text, "a DUO entry starts with Y or R", "en DUO-post starter med Y/R")
        s = PLAYERS.index(text[0])
        rest = text[2:].strip()
        self._turn(s)
        if rest.startswith("X:"):
            cards = _discard_cards(rest)
            if len(cards) != self.hands[s]:
                raise _illegal(
                    "D3",
                    f"A discard shows the whole hand ({self.hands[s]} cards).",
                    f"Et afkast viser hele hånden ({self.hands[s]} kort).",
                )
            for card in set(cards):
                self._card(card, cards.count(card))
            for card in dict.fromkeys(cards):
                found = _gen(self.board, s, card, first=True)
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
        events = _execute(b, s, move)
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
        raise _syntax("game record", "'first_dealer' is Y or R", "'first_dealer' er Y eller R")
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise _syntax("game record", "'moves' must be a list", "'moves' skal være en liste")
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
            moves = _gen(game.board, s, card)
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
