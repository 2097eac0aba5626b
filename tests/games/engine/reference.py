"""A slow, naive second implementation of the move rules, for cross-checks.

Written straight from RULES.md on location codes (no integer tables, no
shared code with the engine), so that property tests can compare the two.
"""

from __future__ import annotations

import copy

SEATS = ("Y", "R", "B", "G")
RING: list[str] = []
for _s in SEATS:
    RING.append(_s + "S")
    RING += [f"{_s}{n}" for n in range(1, 15)]
IDX = {code: i for i, code in enumerate(RING)}

State = dict[str, list[str]]


def prev_seat(s: str) -> str:
    return SEATS[(SEATS.index(s) - 1) % 4]


def partner(s: str) -> str:
    return SEATS[(SEATS.index(s) + 2) % 4]


def is_start(code: str) -> bool:
    return code.endswith("S") and len(code) == 2


def is_goal(code: str) -> bool:
    return len(code) == 3 and code[1] == "M"


def is_field(code: str) -> bool:
    return code[1:].isdigit()


def at(state: State, code: str) -> list[str]:
    """Colours of the pawns on a location (with repeats)."""
    return [c for c in SEATS for x in state[c] if x == code]


def locked(state: State, c: str) -> int:
    n = 0
    while n < 4 and f"{c}M{n + 1}" in state[c]:
        n += 1
    return n


def walk(state: State, c: str, src: str, n: int, forward: bool) -> str | None:
    """Where a pawn of c on src ends after n steps (None if impossible)."""
    pos = src
    mode = "fwd" if forward else "back"
    if is_goal(src):
        mode = "in"
    moved = False

    def goal_blocked(m: int) -> bool:
        if m == 0:
            return True
        code = f"{c}M{m}"
        return code != src and bool(at(state, code))

    for _ in range(n):
        if mode in ("in", "out"):
            m = int(pos[-1])
            nxt = m - 1 if mode == "in" else m + 1
            if nxt <= 4 and goal_blocked(nxt):
                if not moved:
                    return None
                mode = "out" if mode == "in" else "in"
                nxt = m - 1 if mode == "in" else m + 1
                if nxt <= 4 and goal_blocked(nxt):
                    return None
            if nxt == 5:
                pos = f"{prev_seat(c)}14"
                mode = "back"
            else:
                pos = f"{c}M{nxt}"
        elif mode == "fwd":
            if pos == f"{prev_seat(c)}14":
                if at(state, f"{c}M4"):
                    return None
                pos = f"{c}M4"
                mode = "in"
            else:
                i = (IDX[pos] + 1) % 60
                if is_start(RING[i]):
                    if at(state, RING[i]):
                        return None
                    i = (i + 1) % 60
                pos = RING[i]
        else:
            i = (IDX[pos] - 1) % 60
            if is_start(RING[i]):
                if RING[i][0] != c and at(state, RING[i]):
                    return None
                i = (i - 1) % 60
            pos = RING[i]
        moved = True
    return pos


def play_part(
    state: State, c: str, src: str, n: int, forward: bool, f6: bool = True
) -> tuple[State, list[tuple[str, str, str]]] | None:
    """Move one pawn of c from src; the new state and events, or None if illegal."""
    if src not in state[c] or src == c + "H":
        return None
    lc = locked(state, c)
    if is_goal(src) and int(src[-1]) <= lc:
        return None
    if not forward and is_goal(src):
        return None
    dest = walk(state, c, src, n, forward)
    if dest is None:
        return None
    new = copy.deepcopy(state)
    new[c].remove(src)
    events: list[tuple[str, str, str]] = []
    if is_goal(dest):
        if int(dest[-1]) == lc + 1:
            events.append(("lock", c, dest))
        elif f6 and is_goal(src):
            return None
        new[c].append(dest)
        return new, events
    others = [x for x in at(new, dest) if x != c]
    if not others:
        new[c].append(dest)
    elif len(others) == 1:
        o = others[0]
        new[o].remove(dest)
        new[o].append(o + "H")
        new[c].append(dest)
        events.append(("hit", o, dest))
    else:
        new[c].append(c + "H")
        events.append(("hit", c, dest))
    return new, events


def mover(state: State, seat: str) -> str:
    return seat if locked(state, seat) < 4 else partner(seat)


def won(state: State, seat: str) -> bool:
    return locked(state, seat) == 4 and locked(state, partner(seat)) == 4


SINGLE = {
    "1": (1, 14),
    "2": (2,),
    "3": (3,),
    "5": (5,),
    "6": (6,),
    "8": (8,),
    "9": (9,),
    "10": (10,),
    "12": (12,),
    "13": (13,),
}


def legal(state: State, seat: str, card: str) -> set[str]:
    """Canonical texts of every legal move (naive enumeration)."""
    out: set[str] = set()
    c = mover(state, seat)
    if card in ("8", "11", "13") and c + "H" in state[c]:
        out.add(f"{card}: in")
    if card in SINGLE:
        for src in set(state[c]):
            for n in SINGLE[card]:
                if play_part(state, c, src, n, True) is not None:
                    out.add(f"{card}: {src}+{n}")
    if card == "4":
        for src in set(state[c]):
            if play_part(state, c, src, 4, False) is not None:
                out.add(f"4: {src}-4")
    if card == "J":
        singles = sorted(
            {x for s in SEATS for x in state[s] if is_field(x) and len(at(state, x)) == 1},
            key=order_key,
        )
        for i, a in enumerate(singles):
            for b in singles[i + 1 :]:
                out.add(f"J: {a}<>{b}")
    if card == "7":
        seven(state, seat, c, 7, [], [], out)
    return out


def seven(
    state: State,
    seat: str,
    c: str,
    rem: int,
    moved: list[tuple[str, int]],
    steps: list[str],
    out: set[str],
) -> None:
    """All 7 splits; ``moved`` holds (location, count) of pawns already moved."""
    for src in sorted(set(state[c])):
        # pawns on src not yet moved in this 7
        moved_here = sum(1 for loc, _ in moved if loc == src)
        if state[c].count(src) <= moved_here:
            continue
        for k in range(1, rem + 1):
            res = play_part(state, c, src, k, True)
            if res is None:
                continue
            new, events = res
            sent_home = ("hit", c, "") in [(t, o, "") for t, o, _ in events]
            dest = c + "H" if sent_home else walk(state, c, src, k, True)
            assert dest is not None
            text = [*steps, f"{src}+{k}"]
            if rem == k or won(new, seat):
                out.add("7: " + " ".join(text))
                continue
            # the moved pawn now stands on dest; remember it as moved there
            still = [(loc, n) for loc, n in moved]
            still.append((dest, 1))
            nc = c
            if c == seat and locked(new, seat) == 4:
                nc = partner(seat)
                still = []
            seven(new, seat, nc, rem - k, still, text, out)


def order_key(code: str) -> tuple[int, int]:
    c = SEATS.index(code[0])
    rest = code[1:]
    if rest == "H":
        k = 0
    elif rest == "S":
        k = 1
    elif rest.startswith("M"):
        k = 15 + int(rest[1:])
    else:
        k = 1 + int(rest)
    return c, k
