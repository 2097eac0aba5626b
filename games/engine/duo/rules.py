"""DUO move rules: walking, landing, generation and checking one move (T2–T3, F1–F4, C2–C7)."""

from __future__ import annotations

from ..errors import IllegalMoveError
from ..ruleset import DUO
from .board import (
    AREAS,
    BLOCKED,
    CANNOT,
    ENTER,
    GOALS,
    PAWNS,
    PLAYERS,
    STEPS,
    DuoBoard,
    Layout,
    illegal,
)
from .moves import DuoMove, step_text


def _walk(b: DuoBoard, a: int, p: int, n: int, jump: bool) -> int:
    """Path index reached by area a's pawn on path p moving n (negative: back)."""
    lay = b.lay
    cnt = b.cnt
    if n < 0:  # C4: back, over the track only
        t, crossed = lay.back[a][p][-n]
        for s in crossed:
            if cnt[s]:
                return BLOCKED - s
        return t
    track = lay.track
    if p <= track:
        if not jump:
            for s in lay.fwd_cross[a][p][n]:
                if cnt[s]:
                    return BLOCKED - s
        t = p + n
        if t <= track:
            return t
        path = lay.path[a]
        return _walk_goal(cnt, path, track, lay.last, path[p], track, t - track, True)
    path = lay.path[a]
    return _walk_goal(cnt, path, track, lay.last, path[p], p, n, False)


def _walk_goal(
    cnt: list[int],
    path: tuple[int, ...],
    track: int,
    last: int,
    src: int,
    pos: int,
    n: int,
    moved: bool,
) -> int:
    """The steps inside the goal area of a walk from ``src``, now on path ``pos`` (F2, F3)."""
    d = 1
    for _ in range(n):
        nxt = pos + d
        if nxt <= track:
            return CANNOT  # F3: turning happens inside the goal area only
        if nxt <= last and (not cnt[path[nxt]] or path[nxt] == src):
            pos = nxt
            moved = True
            continue
        # F2: the end of the goal area or a pawn: turn once, inside the goal area
        if d < 0 or pos <= track or not moved:
            return CANNOT
        d = -1
        nxt = pos - 1
        if nxt <= track or (cnt[path[nxt]] and path[nxt] != src):
            return CANNOT
        pos = nxt
    return pos


def _land(b: DuoBoard, i: int, a: int, dest: int, events: list[tuple[str, int, int]]) -> None:
    """Put pawn i of area a (lifted) on ``dest`` with T2."""
    lay = b.lay
    cnt, locs, owner = b.cnt, b.locs, b.owner
    if cnt[dest] and lay.is_field[dest] and owner[dest] != a:
        oa = owner[dest]
        if cnt[dest] == 1:
            j = oa * PAWNS
            while locs[j] != dest:
                j += 1
            cnt[dest] = 0
            home = oa * lay.block
            locs[j] = home
            cnt[home] += 1
            events.append(("hit", oa, dest))
        else:
            home = a * lay.block
            locs[i] = home
            cnt[home] += 1
            events.append(("hit", a, dest))
            return
    locs[i] = dest
    cnt[dest] += 1
    owner[dest] = a
    if lay.is_goal[dest]:
        m = dest % lay.block - lay.fields - 1
        if m <= b.locked(a):
            events.append(("lock", a, dest))


def _movable(b: DuoBoard, a: int) -> list[tuple[int, int]]:
    """(location, path index) of area a's pawns that may move, location order."""
    lay = b.lay
    lc = b.locked(a)
    out = []
    for lid in sorted(set(b.locs[a * PAWNS : a * PAWNS + PAWNS])):
        p = lay.pidx[a][lid]
        if p >= 0 and p <= lay.last - lc:
            out.append((lid, p))
    return out


def _swappable(b: DuoBoard) -> list[int]:
    lay = b.lay
    return sorted({lid for lid in b.locs if lay.is_field[lid] and b.cnt[lid] == 1})


def generate(b: DuoBoard, s: int, card: str, first: bool = False) -> list[DuoMove]:
    """Every legal move of ``card`` for player s, canonical order (only the first if ``first``)."""
    if card == "4":
        return _gen_split(b, s, first)
    lay = b.lay
    cnt = b.cnt
    out: list[DuoMove] = []
    areas = (s, s + 2)
    if card in ENTER:
        for a in areas:
            if cnt[a * lay.block]:
                out.append(_move(lay, card, a, -1, 0))
                if first:
                    return out
    jump = card == "5"
    track = lay.track
    for a in areas:
        for lid, p in _movable(b, a):
            for n in STEPS[card]:
                if n < 0 and p > track:
                    continue  # F4: never back in the goal area
                if _walk(b, a, p, n, jump) >= 0:
                    out.append(_move(lay, card, -1, lid, n))
                    if first:
                        return out
    if card == "9":
        singles = _swappable(b)
        for x, u in enumerate(singles):
            for v in singles[x + 1 :]:
                out.append(DuoMove(card, f"9: {lay.codes[u]}<>{lay.codes[v]}", swap=(u, v)))
                if first:
                    return out
    return out


_MOVES: dict[tuple[int, str, int, int, int], DuoMove] = {}


def _move(lay: Layout, card: str, area: int, lid: int, n: int) -> DuoMove:
    """The (shared, immutable) move ``card: in AREA`` (area >= 0) or ``card: LID+n``."""
    key = (lay.fields, card, area, lid, n)
    move = _MOVES.get(key)
    if move is None:
        if area >= 0:
            move = DuoMove(card, f"{card}: in {AREAS[area]}", area=area)
        else:
            move = DuoMove(card, f"{card}: {step_text(lay, lid, n)}", steps=((lid, n),))
        _MOVES[key] = move
    return move


def _gen_split(b: DuoBoard, s: int, first: bool) -> list[DuoMove]:
    """C6: 4 forward steps over pawns of one area; the rest to the other area only
    after that area's last pawn locks."""
    lay = b.lay
    out: list[DuoMove] = []

    def rec(
        board: DuoBoard,
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
                if d <= BLOCKED:
                    break
                if d < 0:
                    continue
                nb = board.copy()
                nb.cnt[lid] -= 1
                _land(nb, i, a, lay.path[a][d], [])
                parts = (*done, (lid, k))
                if k == rem or nb.won(s):
                    text = "4: " + " ".join(step_text(lay, x, n) for x, n in parts)
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


def _pawn(
    b: DuoBoard, s: int, lid: int, moved: set[int] | None, area: int | None
) -> tuple[int, int, int]:
    """(pawn index, area, path index) of a pawn of player s on ``lid`` that may move."""
    lay = b.lay
    if not b.cnt[lid]:
        code = lay.codes[lid]
        raise illegal("S3", f"There is no pawn on {code}.", f"Der står ingen brik på {code}.")
    a = b.owner[lid] if lay.is_field[lid] else lid // lay.block
    if a % 2 != s:
        code = lay.codes[lid]
        raise illegal(
            "S3",
            f"The pawn on {code} belongs to the other player.",
            f"Brikken på {code} tilhører den anden spiller.",
        )
    if area is not None and a != area:
        raise illegal(
            "C6",
            "The 4 is split over pawns of one home area; the rest goes to the other area "
            "only after the first area's last pawn has locked.",
            "4'eren deles mellem brikker fra ét hjemområde; resten går først til det andet "
            "område, når det første områdes sidste brik er låst.",
        )
    p = lay.pidx[a][lid]
    if p == -1:
        code = lay.codes[lid]
        raise illegal(
            "C3",
            f"A pawn at home ({code}) comes into play only with a start card (1, 6, 8).",
            f"En brik hjemme ({code}) kommer kun i spil med et startkort (1, 6, 8).",
        )
    if p > lay.track and p > lay.last - b.locked(a):
        code = lay.codes[lid]
        raise illegal(
            "F1",
            f"The pawn on {code} is locked in its goal and never moves again.",
            f"Brikken på {code} er låst i mål og flyttes aldrig igen.",
        )
    locs = b.locs
    for i in range(a * PAWNS, a * PAWNS + PAWNS):
        if locs[i] == lid and (moved is None or i not in moved):
            return i, a, p
    code = lay.codes[lid]
    raise illegal(
        "C6",
        f"Each pawn moves at most once in a split 4 ({code}).",
        f"Hver brik flyttes højst én gang med en delt 4'er ({code}).",
    )


def _do_step(
    b: DuoBoard,
    s: int,
    lid: int,
    n: int,
    jump: bool,
    moved: set[int] | None,
    area: int | None,
    events: list[tuple[str, int, int]],
) -> int:
    lay = b.lay
    i, a, p = _pawn(b, s, lid, moved, area)
    if n < 0 and p > lay.track:
        raise illegal(
            "F4",
            "A pawn in the goal area is never moved backward.",
            "En brik i målområdet flyttes aldrig baglæns.",
        )
    d = _walk(b, a, p, n, jump)
    if d <= BLOCKED:
        at = lay.codes[BLOCKED - d]
        raise illegal(
            "T3",
            f"The way is blocked: pawns stand on the start field {at}; only the 5 jumps it.",
            f"Vejen er spærret: der står brikker på startfeltet {at}; kun 5'eren springer over.",
        )
    if d < 0:
        raise illegal(
            "F2",
            f"The pawn on {lay.codes[lid]} cannot make {abs(n)} steps: goal circles cannot be "
            "jumped, and it turns only inside its goal area.",
            f"Brikken på {lay.codes[lid]} kan ikke flytte {abs(n)} felter: målcirkler kan ikke "
            "springes over, og den vender kun inde i sit målområde.",
        )
    b.cnt[lid] -= 1
    _land(b, i, a, lay.path[a][d], events)
    if moved is not None:
        moved.add(i)
    return a


def execute(b: DuoBoard, s: int, move: DuoMove) -> list[tuple[str, int, int]]:
    """Check ``move`` for player s and play it on ``b`` (partly changed on error)."""
    events: list[tuple[str, int, int]] = []
    card = move.card
    if move.swap is not None:
        _swap(b, card, move.swap)
    elif move.area >= 0:
        _enter(b, s, card, move.area, events)
    elif card == "4":
        _split(b, s, move, events)
    else:
        steps = move.steps
        if len(steps) != 1 or steps[0][1] not in STEPS[card]:
            raise _wrong_count(card)
        lid, n = steps[0]
        _do_step(b, s, lid, n, card == "5", None, None, events)
    return events


def _wrong_count(card: str) -> IllegalMoveError:
    """A single-pawn card written with other steps than it gives, refused by the card's own
    rule (C2 plain numbers, C3 start cards, C4 the ±2, C5 the 9, C7 the 5)."""
    rule = DUO.card_rule(card)
    n = STEPS[card][0]
    en_n = f"exactly {n} step{'' if n == 1 else 's'} forward"
    da_n = f"præcis {n} felt{'' if n == 1 else 'er'} frem"
    if rule == "C3":
        en = f"Card {card} either brings a pawn from a home area onto its start field ('in YK') "
        en += f"or moves one pawn {en_n}."
        da = f"Kort {card} bringer enten en brik hjemmefra ud på startfeltet ('in YK') "
        da += f"eller flytter én brik {da_n}."
    elif rule == "C4":
        en = f"Card {card} moves one pawn exactly {n} steps backward (-{n}) or forward (+{n})."
        da = f"Kort {card} flytter én brik præcis {n} felter baglæns (-{n}) eller frem (+{n})."
    elif rule == "C5":
        en = f"Card {card} either moves one pawn {en_n} or swaps two pawns ('YK3<>RO7')."
        da = f"Kort {card} flytter enten én brik {da_n} eller bytter to brikker ('YK3<>RO7')."
    else:
        en = f"Card {card} moves one pawn {en_n}."
        da = f"Kort {card} flytter én brik {da_n}."
    return illegal(rule, en, da)


def _swap(b: DuoBoard, card: str, swap: tuple[int, int]) -> None:
    lay = b.lay
    if card != "9":
        raise illegal("C5", "Only the 9 swaps two pawns.", "Kun 9'eren bytter to brikker.")
    x, y = swap
    singles = _swappable(b)
    for lid in (x, y):
        if not b.cnt[lid]:
            code = lay.codes[lid]
            raise illegal(
                "C5",
                f"There is no pawn on {code} to swap.",
                f"Der står ingen brik på {code}, der kan byttes.",
            )
        if lid not in singles:
            raise illegal(
                "C5",
                f"The pawn on {lay.codes[lid]} cannot be swapped: pawns at home, in the goal, "
                "on a start field or two of one area on a field are safe.",
                f"Brikken på {lay.codes[lid]} kan ikke byttes: brikker hjemme, i mål, på et "
                "startfelt eller to fra samme område på et felt er fredede.",
            )
    if x == y:
        raise illegal("C5", "Swap two different pawns.", "Byt to forskellige brikker.")
    i, j = b.locs.index(x), b.locs.index(y)
    b.locs[i], b.locs[j] = y, x
    b.owner[x], b.owner[y] = b.owner[y], b.owner[x]


def _enter(b: DuoBoard, s: int, card: str, a: int, events: list[tuple[str, int, int]]) -> None:
    lay = b.lay
    if card not in ENTER:
        raise illegal(
            "C3",
            "Only a start card (1, 6, 8) brings a pawn into play.",
            "Kun et startkort (1, 6, 8) bringer en brik i spil.",
        )
    if a % 2 != s:
        raise illegal(
            "S3",
            f"{AREAS[a]} belongs to the other player.",
            f"{AREAS[a]} tilhører den anden spiller.",
        )
    if not b.cnt[lay.home(a)]:
        raise illegal(
            "C3", f"No pawn of {AREAS[a]} is at home.", f"Ingen brik fra {AREAS[a]} er hjemme."
        )
    i = b.locs.index(lay.home(a), a * PAWNS)
    b.cnt[lay.home(a)] -= 1
    _land(b, i, a, lay.start(a), events)


def _split(b: DuoBoard, s: int, move: DuoMove, events: list[tuple[str, int, int]]) -> None:
    total = sum(n for _, n in move.steps)
    if any(n < 1 for _, n in move.steps) or total > 4:
        raise illegal(
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
        raise illegal(
            "C6",
            f"All 4 steps must be used (these parts make {total}).",
            f"Alle 4 felter skal bruges (disse dele giver {total}).",
        )
