"""Judge entries in a game record: rulings and penalties (RULES.md P1–P5).

A judge entry starts with ``!`` and is an entry of the record's ``moves``
list like any other, so a replay applies the judge's decisions in order and a
record without them replays exactly as before. Entries are numbered from 1
in record order (the move log's ``seq``).

=============================  ===============================================
``! UPHOLD 12``                entry 12 stands as logged (no effect)
``! VOID 12 14 KEEP 13``       entries 12 and 14 no longer count; the game is
                               replayed without them. A later entry that
                               becomes illegal must be voided too or *kept*:
                               a kept entry counts as played (its card leaves
                               the hand, the turn passes) but moves nothing;
                               a ``! SET`` then gives the real position.
``! SET Y=YH,YH,YS,Y3 R=…``    the pawns stand here (also ``! SET {json}``)
``! P1 Y``                     Y is dealt 3 cards at the next deal
``! P2 R R7``                  talking: R's pawn on R7 goes to its start circle
``! P3 Y`` / ``! P3 Y 5: Y3+5``  touch-move, with the forced move (played as Y's)
``! P4 Y`` / ``! P4 Y 5: Y3+5``  card laid must be used, with the forced move
``! WARN B`` / ``! WARN B P5``  a warning (no effect)
``! RESULT YB`` / ``! RESULT RG TIME``  the judge awards the game; it ends
``! UNDO 14 15``               judge entries 14 and 15 no longer count (a
                               ruling undone, RULES J2); the game is replayed
                               without them
=============================  ===============================================

A DUO record (docs/rulesets/duo.md "Judge entries") has the same entries
with its own players and codes: seats ``Y`` and ``R``, ``! SET YK=YKH,YKH,YKS
RK=… YO=… RO=…``, ``! P2 R RO7``, ``! P3 Y 5: YK3+5``, ``! RESULT Y`` (also
written ``! RESULT YB``: the side's result code).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .board import SEAT_INDEX
from .boardstate import EventTuple
from .duo.board import AREAS as DUO_AREAS
from .duo.board import PLAYERS as DUO_PLAYERS
from .duo.game import SIDE_TEAM, DuoGame
from .duo.moves import parse_move as parse_duo_move
from .duo.position import DuoPosition
from .errors import EngineError, IllegalMoveError, NotationError, PositionError
from .flow import Game
from .notation import parse_move
from .position import Position
from .ruleset import RULEBOOK, Ruleset

JUDGE_PREFIX = "!"
KINDS = ("UPHOLD", "VOID", "SET", "P1", "P2", "P3", "P4", "WARN", "RESULT", "UNDO")
_TRACK_RE = re.compile(r"^([YRBG])(S|[1-9]|1[0-4])$")
_DUO_TRACK_RE = re.compile(r"^(YK|RK|YO|RO)(S|[1-9]\d?)$")
_TEAM_OF_SIDE = {**SIDE_TEAM, "YB": "YB", "RG": "RG"}
_RULE_RE = re.compile(r"^[A-Z]\d{1,2}$")


def _bad(text: str, why: str, why_da: str) -> NotationError:
    return NotationError.of("syntax", what=text, why=why, why_da=why_da)


def _illegal(rule: str, en: str, da: str) -> IllegalMoveError:
    return IllegalMoveError(rule, en, da)


@dataclass(frozen=True)
class JudgeEntry:
    """A parsed judge entry."""

    kind: str
    seat: str | None = None
    entries: tuple[int, ...] = ()
    keep: tuple[int, ...] = ()
    position: Position | DuoPosition | None = None
    at: str | None = None
    move: str | None = None
    team: str | None = None
    on_time: bool = False
    rule: str | None = None
    duo: bool = False
    """Read from a DUO record: players Y/R and DUO codes."""

    def __str__(self) -> str:
        return format_judge_entry(self)


def _seat(text: str, token: str | None, duo: bool = False) -> str:
    if duo:
        if token not in DUO_PLAYERS:
            raise _bad(text, "name the player Y or R", "angiv spilleren Y eller R")
        return token
    if token not in SEAT_INDEX:
        raise _bad(text, "name the seat Y, R, B or G", "angiv pladsen Y, R, B eller G")
    return token


def _numbers(text: str, tokens: list[str]) -> tuple[int, ...]:
    # ASCII digits only: "²".isdigit() is true, but int("²") raises.
    if not tokens or not all(t.isascii() and t.isdigit() and int(t) >= 1 for t in tokens):
        raise _bad(text, "name entries by their numbers (from 1)", "angiv posternes numre (fra 1)")
    return tuple(sorted({int(t) for t in tokens}))


def _read_position(data: Any) -> Position:
    """A position on the dm board, or else on the rulebook's (``X15``, others on ``XS``).

    A judge entry is read before it is applied to a game; applying ``! SET``
    checks the position against the game's own ruleset (:func:`_set_position`).
    """
    try:
        return Position.from_json(data)
    except PositionError as dm_error:
        try:
            return Position.from_json(data, RULEBOOK)
        except PositionError:
            raise dm_error from None


def _position(text: str, body: str, duo: Ruleset | None = None) -> Position | DuoPosition:
    body = body.strip()
    if body.startswith("{"):
        try:
            data = json.loads(body)
        except ValueError:
            raise _bad(
                text, "the position is not valid JSON", "stillingen er ikke gyldig JSON"
            ) from None
        return (
            _read_position(data) if duo is None else DuoPosition.from_json(data, duo.board_fields)
        )
    keys = SEAT_INDEX if duo is None else DUO_AREAS
    data2: dict[str, list[str]] = {}
    for part in body.split():
        seat, _, locs = part.partition("=")
        if seat not in keys or seat in data2:
            if duo is not None:
                raise _bad(text, "write SET YK=… RK=… YO=… RO=…", "skriv SET YK=… RK=… YO=… RO=…")
            raise _bad(text, "write SET Y=… R=… B=… G=…", "skriv SET Y=… R=… B=… G=…")
        data2[seat] = locs.split(",")
    if duo is not None:
        return DuoPosition.from_json(data2, duo.board_fields)
    return _read_position(data2)


def parse_judge_entry(text: str, ruleset: Ruleset | None = None) -> JudgeEntry:
    """Read a judge entry (``"! P1 Y"``); raises NotationError (PositionError for a bad SET).

    ``ruleset`` names the record's ruleset, whose variant reads the entry in
    its own notation (DUO: its players, codes and moves,
    :meth:`.variant.Variant.parse_judge_entry`); None reads the four-seat notation.
    """
    if ruleset is None:
        return read_four_seat_entry(text)
    from .variant import variant_of  # the registry sits above the modules that read records

    return variant_of(ruleset).parse_judge_entry(text)


def read_four_seat_entry(text: str) -> JudgeEntry:
    """A judge entry in the four-seat notation (seats ``Y R B G``, result codes ``YB``/``RG``)."""
    if not isinstance(text, str) or not text.startswith(JUDGE_PREFIX + " "):
        raise _bad(str(text), "a judge entry starts with '! '", "en dommerpost starter med '! '")
    parts = text.split()
    kind = parts[1] if len(parts) > 1 else ""
    args = parts[2:]
    if kind == "UPHOLD":
        entries = _numbers(text, args)
        if len(entries) != 1:
            raise _bad(text, "uphold one entry", "stadfæst én post")
        return JudgeEntry("UPHOLD", entries=entries)
    if kind == "VOID":
        if "KEEP" in args:
            i = args.index("KEEP")
            voided, kept = _numbers(text, args[:i]), _numbers(text, args[i + 1 :])
        else:
            voided, kept = _numbers(text, args), ()
        if set(voided) & set(kept):
            raise _bad(
                text,
                "an entry is voided or kept, not both",
                "en post annulleres eller beholdes, ikke begge",
            )
        return JudgeEntry("VOID", entries=voided, keep=kept)
    if kind == "SET":
        return JudgeEntry("SET", position=_position(text, text.split("SET", 1)[1]))
    if kind == "P1" and len(args) == 1:
        return JudgeEntry("P1", seat=_seat(text, args[0]))
    if kind == "P2" and len(args) == 2:
        seat = _seat(text, args[0])
        m = _TRACK_RE.match(args[1])
        if not m:
            raise _bad(text, "name a track field such as R7", "angiv et felt på banen, f.eks. R7")
        return JudgeEntry("P2", seat=seat, at=args[1])
    if kind in ("P3", "P4") and args:
        seat = _seat(text, args[0])
        move = " ".join(args[1:]) or None
        if move is not None:
            move = str(parse_move(move))
        return JudgeEntry(kind, seat=seat, move=move)
    if kind == "WARN" and 1 <= len(args) <= 2:
        seat = _seat(text, args[0])
        rule = args[1] if len(args) == 2 else None
        if rule is not None and not _RULE_RE.match(rule):
            raise _bad(
                text, "name the rule by its id, e.g. P5", "angiv reglen ved dens id, f.eks. P5"
            )
        return JudgeEntry("WARN", seat=seat, rule=rule)
    if kind == "RESULT" and 1 <= len(args) <= 2 and args[0] in ("YB", "RG"):
        if len(args) == 2 and args[1] != "TIME":
            raise _bad(
                text,
                "write RESULT YB or RESULT YB TIME",
                "skriv 'RESULT YB' eller 'RESULT YB TIME'",
            )
        return JudgeEntry("RESULT", team=args[0], on_time=len(args) == 2)
    if kind == "UNDO":
        return JudgeEntry("UNDO", entries=_numbers(text, args))
    raise _bad(
        text,
        "unknown judge entry; use UPHOLD, VOID, SET, P1, P2, P3, P4, WARN, RESULT or UNDO",
        "ukendt dommerpost; brug 'UPHOLD', 'VOID', 'SET', 'P1', 'P2', 'P3', 'P4', 'WARN', "
        "'RESULT' eller 'UNDO'",
    )


def read_duo_entry(text: str, ruleset: Ruleset) -> JudgeEntry:
    """A judge entry of a DUO record: the kinds that name no seat or code read as
    in the four-seat notation; the others with DUO players, codes and moves."""
    if not isinstance(text, str) or not text.startswith(JUDGE_PREFIX + " "):
        raise _bad(str(text), "a judge entry starts with '! '", "en dommerpost starter med '! '")
    parts = text.split()
    kind = parts[1] if len(parts) > 1 else ""
    args = parts[2:]
    if kind in ("UPHOLD", "VOID", "UNDO"):
        return read_four_seat_entry(text)
    if kind == "SET":
        return JudgeEntry(
            "SET", position=_position(text, text.split("SET", 1)[1], ruleset), duo=True
        )
    if kind == "P1" and len(args) == 1:
        return JudgeEntry("P1", seat=_seat(text, args[0], duo=True), duo=True)
    if kind == "P2" and len(args) == 2:
        seat = _seat(text, args[0], duo=True)
        if not _DUO_TRACK_RE.match(args[1]):
            raise _bad(text, "name a track field such as RO7", "angiv et felt på banen, f.eks. RO7")
        return JudgeEntry("P2", seat=seat, at=args[1], duo=True)
    if kind in ("P3", "P4") and args:
        seat = _seat(text, args[0], duo=True)
        move = " ".join(args[1:]) or None
        if move is not None:
            move = str(parse_duo_move(move, ruleset.board_fields))
        return JudgeEntry(kind, seat=seat, move=move, duo=True)
    if kind == "WARN" and 1 <= len(args) <= 2:
        entry = read_four_seat_entry(f"! WARN Y {' '.join(args[1:])}".strip())
        return JudgeEntry("WARN", seat=_seat(text, args[0], duo=True), rule=entry.rule, duo=True)
    if kind == "RESULT" and 1 <= len(args) <= 2 and args[0] in _TEAM_OF_SIDE:
        if len(args) == 2 and args[1] != "TIME":
            raise _bad(
                text, "write RESULT Y or RESULT Y TIME", "skriv 'RESULT Y' eller 'RESULT Y TIME'"
            )
        return JudgeEntry("RESULT", team=_TEAM_OF_SIDE[args[0]], on_time=len(args) == 2, duo=True)
    raise _bad(
        text,
        "unknown DUO judge entry; use UPHOLD, VOID, SET, P1, P2, P3, P4, WARN, RESULT or UNDO "
        "with the players Y and R",
        "ukendt DUO-dommerpost; brug 'UPHOLD', 'VOID', 'SET', 'P1', 'P2', 'P3', 'P4', 'WARN', "
        "'RESULT' eller 'UNDO' med spillerne Y og R",
    )


def format_judge_entry(entry: JudgeEntry) -> str:
    """The canonical text of a judge entry."""
    k = entry.kind
    if k == "UPHOLD":
        return f"! UPHOLD {entry.entries[0]}"
    if k == "VOID":
        text = "! VOID " + " ".join(map(str, entry.entries))
        return text + (" KEEP " + " ".join(map(str, entry.keep)) if entry.keep else "")
    if k == "SET":
        assert entry.position is not None
        data = entry.position.to_json()  # seats (areas) in the notation's order
        return "! SET " + " ".join(f"{s}={','.join(locs)}" for s, locs in data.items())
    if k == "P1":
        return f"! P1 {entry.seat}"
    if k == "P2":
        return f"! P2 {entry.seat} {entry.at}"
    if k in ("P3", "P4"):
        return f"! {k} {entry.seat}" + (f" {entry.move}" if entry.move else "")
    if k == "WARN":
        return f"! WARN {entry.seat}" + (f" {entry.rule}" if entry.rule else "")
    if k == "UNDO":
        return "! UNDO " + " ".join(map(str, entry.entries))
    team = (entry.team or "")[:1] if entry.duo else entry.team
    return f"! RESULT {team}" + (" TIME" if entry.on_time else "")


# --- applying ----------------------------------------------------------------


AnyGame = Game | DuoGame
"""The mutable game of a four-seat or a DUO record: judge entries apply to either."""


def _is_judge(text: Any) -> bool:
    return isinstance(text, str) and text.startswith(JUDGE_PREFIX)


def _is_kind(text: Any, kind: str) -> bool:
    return _is_judge(text) and text.split()[1:2] == [kind]


def _is_void(text: Any) -> bool:
    return _is_kind(text, "VOID")


def _earlier_undone(history: Sequence[Any]) -> set[int]:
    """Judge entries undone by the UNDO entries of ``history`` (J2)."""
    undone: set[int] = set()
    for text in history:
        if _is_kind(text, "UNDO"):
            undone |= set(read_four_seat_entry(text).entries)
    return undone


def _earlier_voids(history: Sequence[Any], undone: set[int]) -> tuple[set[int], set[int]]:
    """Entries voided and kept by the VOID entries of ``history`` not ``undone``."""
    voided: set[int] = set()
    kept: set[int] = set()
    for n, text in enumerate(history, start=1):
        if _is_void(text) and n not in undone:
            entry = read_four_seat_entry(text)
            voided |= set(entry.entries)
            kept |= set(entry.keep)
    return voided, kept


def entry_marks(moves: Sequence[Any]) -> dict[int, str]:
    """Entry number → ``"void"``, ``"kept"`` or ``"undone"`` from the judge entries of ``moves``.

    What a reader of the record must know to show it: entries voided or
    kept by a VOID that still counts, and judge entries a judge undid (J2).
    The entries are taken as the engine accepted them (not checked here).
    """
    undone = _earlier_undone(moves)
    voided, kept = _earlier_voids(moves, undone)
    marks = dict.fromkeys(sorted(kept), "kept")
    marks.update(dict.fromkeys(sorted(voided), "void"))
    marks.update(dict.fromkeys(sorted(undone), "undone"))
    return marks


def _history(record: Sequence[Any], index: int, text: str) -> Sequence[Any]:
    if index >= len(record) or record[index] != text:
        raise _illegal(
            "J1",
            "This judge entry needs the whole game record (replay it from the start).",
            "Denne dommerpost kræver hele spillets log (genafspil fra starten).",
        )
    return record[:index]


def _check_targets(entry: JudgeEntry, history: Sequence[Any], voided: set[int]) -> None:
    for n in (*entry.entries, *entry.keep):
        if n > len(history):
            raise _illegal(
                "J1",
                f"Entry {n} is not an earlier entry of this game.",
                f"Post {n} er ikke en tidligere post i dette spil.",
            )
        if _is_judge(history[n - 1]):
            raise _illegal(
                "J1",
                f"Entry {n} is a judge entry; only played entries can be voided or kept.",
                f"Post {n} er en dommerpost; kun spillede poster kan annulleres eller beholdes.",
            )
        if entry.kind == "VOID" and n in voided:
            raise _illegal("J1", f"Entry {n} is already void.", f"Post {n} er allerede annulleret.")


class UndoConflict(IllegalMoveError):
    """Undoing a ruling makes a later entry illegal: that entry must be voided first."""

    def __init__(self, entry: int, text: str, cause: EngineError) -> None:
        super().__init__(
            cause.rule,
            f"After the undo, entry {entry} ({text}) is no longer legal: {cause.message_en} "
            "Void that entry first, then undo the ruling.",
            f"Efter omgørelsen er post {entry} ({text}) ikke længere lovlig: "
            f"{cause.message_da} Annullér den post først, og omgør så kendelsen.",
        )
        self.entry = entry
        self.entry_text = text
        self.cause = cause


def _check_undo(entry: JudgeEntry, history: Sequence[Any], undone: set[int]) -> None:
    for n in entry.entries:
        if n > len(history):
            raise _illegal(
                "J1",
                f"Entry {n} is not an earlier entry of this game.",
                f"Post {n} er ikke en tidligere post i dette spil.",
            )
        text = history[n - 1]
        if not _is_judge(text):
            raise _illegal(
                "J2",
                f"Entry {n} is not a judge entry; an undo only takes back a ruling "
                "(a played entry is voided).",
                f"Post {n} er ikke en dommerpost; en omgørelse tager kun en kendelse tilbage "
                "(et spillet træk annulleres).",
            )
        if _is_kind(text, "UNDO"):
            raise _illegal(
                "J2",
                f"Entry {n} is itself an undo and cannot be undone: make the ruling again.",
                f"Post {n} er selv en omgørelse og kan ikke omgøres: afsig kendelsen igen.",
            )
        if n in undone:
            raise _illegal("J2", f"Entry {n} is already undone.", f"Post {n} er allerede omgjort.")


class VoidConflict(IllegalMoveError):
    """A void makes a later entry illegal: it must be voided too or kept."""

    def __init__(self, entry: int, text: str, cause: EngineError) -> None:
        super().__init__(
            cause.rule,
            f"After the void, entry {entry} ({text}) is no longer legal: {cause.message_en} "
            "Void it too, or keep it with a position correction.",
            f"Efter annulleringen er post {entry} ({text}) ikke længere lovlig: "
            f"{cause.message_da} Annullér den også, eller behold den med en rettet stilling.",
        )
        self.entry = entry
        self.entry_text = text
        self.cause = cause


def _rebuild(
    game: AnyGame,
    record: Sequence[Any],
    voided: set[int],
    kept: set[int],
    conflicts: list[VoidConflict] | None = None,
    undone: set[int] | None = None,
) -> None:
    """Replay ``record`` (the entries before the void) without ``voided``
    and without the judge entries ``undone``.

    Raises VoidConflict on the first later entry that is no longer legal and
    is not kept (``game`` is then unchanged) — unless ``conflicts`` collects
    them: such entries are then treated as kept and the replay goes on.
    """
    fresh: AnyGame = type(game)(game.ruleset, game.first_dealer, game.start)  # type: ignore[arg-type]
    skipped = undone or set()
    for n, text in enumerate(record, start=1):
        if n in voided or n in skipped or _is_void(text) or _is_kind(text, "UNDO"):
            continue  # earlier voids and undos are already merged into the sets
        try:
            fresh.entry(text, record, n - 1)
        except EngineError as err:
            if _is_judge(text) or (n not in kept and conflicts is None):
                raise VoidConflict(n, str(text), err) from None
            if n not in kept and conflicts is not None:
                conflicts.append(VoidConflict(n, str(text), err))
            fresh.play_kept(text)
    for slot in type(game).__slots__:
        setattr(game, slot, getattr(fresh, slot))


def apply_judge_entry(
    game: AnyGame, text: str, record: Sequence[Any] = (), index: int = 0
) -> list[EventTuple]:
    """Apply one judge entry to ``game`` (the handler registered for ``!``, four-seat and DUO)."""
    entry = parse_judge_entry(text, game.ruleset)
    kind = entry.kind
    if kind in ("UPHOLD", "VOID"):
        history = _history(record, index, text)
        undone = _earlier_undone(history)
        voided, kept = _earlier_voids(history, undone)
        _check_targets(entry, history, voided)
        if kind == "VOID":
            _rebuild(
                game, history, voided | set(entry.entries), kept | set(entry.keep), None, undone
            )
        return []
    if kind == "UNDO":
        history = _history(record, index, text)
        undone = _earlier_undone(history)
        _check_undo(entry, history, undone)
        undone |= set(entry.entries)
        voided, kept = _earlier_voids(history, undone)
        try:
            _rebuild(game, history, voided, kept, None, undone)
        except VoidConflict as conflict:
            raise UndoConflict(conflict.entry, conflict.entry_text, conflict.cause) from None
        return []
    if kind == "SET":
        assert entry.position is not None
        game.set_position(entry.position)
        return []
    if kind == "RESULT":
        assert entry.team is not None
        game.award(entry.team)
        return []
    if game.winner is not None and kind in ("P2", "P3", "P4"):
        raise IllegalMoveError.of("w1", team=game.winner)
    assert entry.seat is not None
    if kind == "P1":
        game.penalise(game.seat_index(entry.seat))
    elif kind == "P2":
        assert entry.at is not None
        game.send_home(entry.seat, entry.at)
    elif entry.move is not None:  # P3, P4 with the forced move
        return game.entry(f"{entry.seat} {entry.move}")
    return []


def void_check(
    record: dict[str, Any], entries: list[int], keep: list[int] | None = None
) -> list[dict[str, Any]]:
    """Which later entries become illegal if ``entries`` are voided at the end of ``record``.

    Each such entry is taken as kept (counts as played, moves nothing) to go
    on checking; the answer lists ``{"entry", "move", "rule", "message",
    "message_da"}`` in order. One replay of the record plus one of the void.
    Raises EngineError if the record itself or the void cannot be applied
    for another reason (a bad entry number, a judge entry that fails).
    """
    from .variant import record_game  # the registry sits above the modules that read records

    game, moves = record_game(record)
    for i, text in enumerate(moves):
        game.entry(text, moves, i)
    void = JudgeEntry(
        "VOID", entries=tuple(sorted(set(entries))), keep=tuple(sorted(set(keep or [])))
    )
    text = format_judge_entry(void)
    history = _history([*moves, text], len(moves), text)
    undone = _earlier_undone(history)
    voided, kept = _earlier_voids(history, undone)
    _check_targets(void, history, voided)
    conflicts: list[VoidConflict] = []
    _rebuild(game, history, voided | set(void.entries), kept | set(void.keep), conflicts, undone)
    return [
        {
            "entry": c.entry,
            "move": c.entry_text,
            "rule": c.rule,
            "message": c.cause.message_en,
            "message_da": c.cause.message_da,
        }
        for c in conflicts
    ]
