"""One part of a move, an entry and a swap, written once for every four-seat board.

:class:`BoardMoves` checks and plays them; a board (dm2023's in
:mod:`.execute`, the printed rulebook's in :mod:`.rulebook`) gives its
differences as data (its location codes and path tables, its home fields,
how deep each goal circle is, from where a pawn may no longer walk back) and
as a few small overrides: its walks forward and back, their refusals,
putting a pawn down, and the checks of an entry and a swap that only it
has. :func:`.execute.execute` plays a move through the board's methods.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import SEATS, home_lid, start_lid
from .boardstate import Board, EventTuple, locked_n
from .errors import IllegalMoveError, NotationError


class BoardMoves:
    """The checking and playing of a board's parts of a move (RULES.md S3, C7–C9, F3, F6, F7)."""

    codes: Sequence[str]
    """The code of every location id (``"Y3"``, ``"RM2"``)."""
    pidx: Sequence[Sequence[int]]
    """Per colour, the path index of every location id (-1 off the colour's path)."""
    path: Sequence[Sequence[int]]
    """Per colour, the location id of every path index."""
    nloc: int
    """Location ids below this are fields of the board."""
    goal_depth: Sequence[int]
    """Per location, k for the k-th goal circle from the inside (a pawn there is
    locked once k of its colour are, F3), 0 elsewhere."""
    back_from: int
    """From this path index on a pawn may not walk back (F7)."""
    back_refusal: str
    """The error key of a backward walk from there."""

    # --- the board's own parts --------------------------------------------------------

    def walk_forward(self, b: Board, c: int, lid: int, p: int, n: int) -> int:
        """The path index reached walking ``n`` forward from ``lid`` (path index ``p``),
        or a negative code for :meth:`walk_error`."""
        raise NotImplementedError

    def walk_back(self, b: Board, c: int, p: int, n: int) -> int:
        """The path index reached walking ``n`` back from path index ``p``, or a negative code."""
        raise NotImplementedError

    def walk_error(self, code: int, c: int, lid: int, n: int) -> IllegalMoveError:
        """The refusal of a walk of ``n`` from ``lid`` that answered ``code``."""
        raise NotImplementedError

    def put(self, b: Board, i: int, c: int, dest: int, events: list[EventTuple]) -> None:
        """Move pawn ``i`` of colour ``c`` from its location to ``dest`` (hits, locks)."""
        raise NotImplementedError

    def put_entered(self, b: Board, i: int, c: int, dest: int, events: list[EventTuple]) -> None:
        """Move pawn ``i`` from home to its start (C8); :meth:`put` unless the board differs."""
        self.put(b, i, c, dest, events)

    def enter_refusal(self, b: Board, c: int) -> IllegalMoveError | None:
        """Why colour ``c`` may not enter a pawn, or None (its home is not empty: checked)."""
        return None

    def swap_pair_refusal(self, x: int, y: int) -> IllegalMoveError | None:
        """Why the two locations of a swap may not be swapped, before any other check."""
        return None

    def swap_field_refusal(self, b: Board, lid: int) -> IllegalMoveError | None:
        """Why the pawn on ``lid`` (one pawn of a swap, there) may not be swapped."""
        return None

    def swap_result_refusal(self, b: Board, x: int, y: int) -> IllegalMoveError | None:
        """Why the swap of ``x`` and ``y`` may not end as it would."""
        return None

    # --- written once ---------------------------------------------------------------

    def pawn_at(self, b: Board, seat: int, c: int, lid: int, moved: list[bool] | None) -> int:
        """Index of a pawn of colour c on ``lid`` that may move (S3, C7, C8, F3)."""
        cnt = b.cnt
        if lid >= self.nloc or cnt[lid] == 0:
            raise IllegalMoveError.of("no_pawn", at=self.codes[lid], seat=SEATS[seat])
        if b.owner[lid] != c:
            raise IllegalMoveError.of("not_yours", at=self.codes[lid], seat=SEATS[seat])
        if lid == home_lid(c):
            raise IllegalMoveError.of("c8_home", at=self.codes[lid])
        depth = self.goal_depth[lid]
        if depth and depth <= locked_n(cnt, c):
            raise IllegalMoveError.of("f3", at=self.codes[lid])
        locs = b.locs
        for i in range(c * 4, c * 4 + 4):
            if locs[i] == lid and (moved is None or not moved[i]):
                return i
        raise IllegalMoveError.of("c7_twice", at=self.codes[lid])

    def step(
        self,
        b: Board,
        seat: int,
        c: int,
        lid: int,
        n: int,
        f6: bool,
        moved: list[bool] | None,
        events: list[EventTuple],
        dest_check: int,
    ) -> int:
        """Check and play one part; returns the path index reached."""
        i = self.pawn_at(b, seat, c, lid, moved)
        p = self.pidx[c][lid]
        if n < 0:
            if p >= self.back_from:
                raise IllegalMoveError.of(self.back_refusal, at=self.codes[lid])
            d = self.walk_back(b, c, p, -n)
        else:
            d = self.walk_forward(b, c, lid, p, n)
        if d < 0:
            raise self.walk_error(d, c, lid, n)
        dest = self.path[c][d]
        if f6 and d >= 57 and p >= 57 and d != 60 - locked_n(b.cnt, c):
            raise IllegalMoveError.of("f6", at=self.codes[lid], to=self.codes[dest])
        if dest_check >= 0 and dest_check != dest:
            raise NotationError.of("dest", got=self.codes[dest], want=self.codes[dest_check])
        self.put(b, i, c, dest, events)
        if moved is not None:
            moved[i] = True
        return d

    def enter(self, b: Board, c: int, events: list[EventTuple]) -> None:
        """Bring a pawn of colour ``c`` from home to its start (C8)."""
        refusal = self.enter_refusal(b, c)
        if refusal is not None:
            raise refusal
        i = b.locs.index(home_lid(c), c * 4)
        self.put_entered(b, i, c, start_lid(c), events)

    def swap(self, b: Board, x: int, y: int) -> None:
        """Check and play the swap of the pawns on ``x`` and ``y`` (C9)."""
        refusal = self.swap_pair_refusal(x, y)
        if refusal is not None:
            raise refusal
        if x == y:
            raise IllegalMoveError.of("c9_same")
        for lid in (x, y):
            if lid >= self.nloc or not b.cnt[lid]:
                raise IllegalMoveError.of("c9_empty", at=self.codes[min(lid, self.nloc - 1)])
            refusal = self.swap_field_refusal(b, lid)
            if refusal is not None:
                raise refusal
        refusal = self.swap_result_refusal(b, x, y)
        if refusal is not None:
            raise refusal
        locs, owner = b.locs, b.owner
        i = locs.index(x)
        j = locs.index(y)
        locs[i], locs[j] = y, x
        owner[x], owner[y] = owner[y], owner[x]
