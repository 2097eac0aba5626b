"""Reads of a finished game's replay: every position of its log, with the engine at hand.

A replay (``GameReplay``) is a tuple of frames: frame 0 is the start, frame
``n`` the game after the log's ``n``-th entry. Each frame (``ReplayFrame``)
carries what the replay page and the stream overlay draw (the position,
locked pawns, the seat to move, the remaining distance of both sides) and,
for a player's move, the engine's legal moves for the card that was played
before it was played, and which one the player chose (``ReplayChoice``).
Everything comes from the engine's public functions (``games.engine``:
``initial_state``, ``state.play``, ``replay``, ``position_legal_moves``,
``remaining_distance``), so every ruleset answers the same way. Each value's
``to_json`` is what the page embeds, in its fields' order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from games.engine import (
    AnyState,
    EngineError,
    get_ruleset,
    initial_state,
    position_legal_moves,
    remaining_distance,
    replay,
)
from games.engine.judge import JUDGE_PREFIX
from games.models import Game
from games.selectors.cache import replay_frames_cached
from games.selectors.log import active_entries, game_record, log_head, log_origin
from games.signals import replay_rulings_wanted

DISCARD_CARD = "X"
# A 7 can have hundreds of splits: the page lists this many and says how many there are.
LEGAL_LISTED = 40


@dataclass(frozen=True, slots=True)
class ReplayChoice:
    """The card a player's entry played, the engine's legal moves for it and the choice.

    A discard has no card (``card`` and ``chosen`` None, no legal moves) and
    says nothing of ``chosen_legal`` (None, and absent from ``to_json``).
    """

    seat: str
    card: str | None
    legal: tuple[str, ...]
    legal_count: int
    chosen: str | None
    chosen_legal: bool | None

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its fields in order and rebuilt by __init__: about half the
        # time the dataclass's own pickling of slots takes (docs/caching.md).
        return (ReplayChoice, _CHOICE_FIELDS(self))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self.seat,
            "card": self.card,
            "legal": list(self.legal),
            "legal_count": self.legal_count,
            "chosen": self.chosen,
        }
        if self.chosen_legal is not None:
            data["chosen_legal"] = self.chosen_legal
        return data


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """One position of a replay: the start (``seq`` 0, no ``text``) or the game after
    the entry ``seq``, with its ``events`` (hits and locks, as the engine gives them)
    and either ``judge`` (a judge's entry) or the player's ``choice``."""

    seq: int
    position: dict[str, list[str]]
    locked: dict[str, list[str]]
    to_move: str | None
    hand_sizes: dict[str, int]
    winner: str | None
    distance: dict[str, int]
    text: str | None = None
    judge: bool = False
    choice: ReplayChoice | None = None
    events: tuple[dict[str, Any], ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:
        # As ReplayChoice's: a replay is mostly its frames.
        return (ReplayFrame, _FRAME_FIELDS(self))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seq": self.seq}
        if self.text is not None:
            data["text"] = self.text
            if self.judge:
                data["judge"] = True
            if self.choice is not None:
                data.update(self.choice.to_json())
            data["events"] = list(self.events)
        data["position"] = self.position
        data["locked"] = self.locked
        data["to_move"] = self.to_move
        data["hand_sizes"] = self.hand_sizes
        data["winner"] = self.winner
        data["distance"] = self.distance
        return data


_CHOICE_FIELDS = attrgetter(*ReplayChoice.__slots__)
_FRAME_FIELDS = attrgetter(*ReplayFrame.__slots__)


@dataclass(frozen=True, slots=True)
class ReplayStop:
    """The entry ``seq`` the engine refused, which ends a replay, and the rule.

    A judge's entry is refused by the engine's replay of the log up to it,
    which also names the entry's place in the record (``index``) and its text
    (``move``); a player's entry by the move itself (both None).
    """

    seq: int
    rule: str
    message: str
    message_da: str
    index: int | None = None
    move: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seq": self.seq}
        if self.index is not None:
            data["index"] = self.index
            data["move"] = self.move
        data["rule"] = self.rule
        data["message"] = self.message
        data["message_da"] = self.message_da
        return data


@dataclass(frozen=True, slots=True)
class GameReplay:
    """Every position of a log (``frames``), up to the first entry the engine refused
    (``error``, None when it took every one)."""

    frames: tuple[ReplayFrame, ...]
    error: ReplayStop | None

    @property
    def last_ply(self) -> int:
        return len(self.frames) - 1

    def to_json(self) -> dict[str, Any]:
        return {
            "frames": [frame.to_json() for frame in self.frames],
            "error": None if self.error is None else self.error.to_json(),
        }


@dataclass(frozen=True, slots=True)
class ReplayRuling:
    """A ruling as the public replay shows it (``replay_rulings_wanted``): its kind,
    the kind in words, the judge's reason and the judge entries it wrote. No
    judge's name: the replay is public."""

    kind: str
    label: str
    reason: str
    log: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "label": self.label,
            "reason": self.reason,
            "log": list(self.log),
        }


@dataclass(frozen=True, slots=True)
class PlacedRulings:
    """The rulings of a replay by the judge entry each wrote (``at``: seq → rulings),
    and those that wrote none (``other``: a warning, a result)."""

    at: dict[int, list[ReplayRuling]]
    other: list[ReplayRuling]

    def to_json(self) -> dict[str, Any]:
        return {
            "at": {
                seq: [ruling.to_json() for ruling in rulings] for seq, rulings in self.at.items()
            },
            "other": [ruling.to_json() for ruling in self.other],
        }


def _frame(state: AnyState, seq: int, **entry: Any) -> ReplayFrame:
    rules = state.ruleset
    position = state.position
    return ReplayFrame(
        seq=seq,
        position=position.to_json(),
        locked={seat: position.locked(seat) for seat in rules.seats},
        to_move=state.to_move,
        hand_sizes=dict(state.hand_sizes),
        winner=state.winner,
        distance=dict(remaining_distance(position, rules)["teams"]),
        **entry,
    )


def _choice(state: AnyState, text: str) -> ReplayChoice:
    """The card a player's entry played, the engine's legal moves for it and the choice."""
    seat, _, move = text.partition(" ")
    card = move.split(":", 1)[0].strip()
    if card == DISCARD_CARD:
        return ReplayChoice(
            seat=seat, card=None, legal=(), legal_count=0, chosen=None, chosen_legal=None
        )
    legal = position_legal_moves(state.position, seat, card, state.ruleset)
    listed = legal[:LEGAL_LISTED]
    if move in legal and move not in listed:
        listed[-1] = move
    return ReplayChoice(
        seat=seat,
        card=card,
        legal=tuple(listed),
        legal_count=len(legal),
        chosen=move,
        chosen_legal=move in legal,
    )


def replay_frames(
    *, ruleset: str, first_dealer: str, entries: Sequence[Mapping[str, Any]]
) -> GameReplay:
    """Every position of a log, up to the first entry the engine refuses.

    ``entries`` are the active entries in order (``seq``, ``text``). A judge
    entry may refer to earlier entries (a void replays from the start), so
    the game after it is the engine's replay of the log up to it; a player's
    entry is played on the state before it. The frames stop at the first
    entry the engine refuses (``error`` says which).
    """
    rules = get_ruleset(ruleset)
    state: AnyState = initial_state(first_dealer, rules)
    frames: list[ReplayFrame] = [_frame(state, 0)]
    texts: list[str] = []
    for entry in entries:
        seq, text = int(entry["seq"]), str(entry["text"])
        texts.append(text)
        choice: ReplayChoice | None = None
        try:
            if text.startswith(JUDGE_PREFIX):
                result = replay({"ruleset": ruleset, "first_dealer": first_dealer, "moves": texts})
                if result.first_error is not None:
                    refused = result.first_error
                    stop = ReplayStop(
                        seq=seq, index=refused.index, move=refused.move, rule=refused.rule,
                        message=refused.message, message_da=refused.message_da,
                    )  # fmt: skip
                    return GameReplay(tuple(frames), stop)
                state, events = result.state, list(result.events[-1] if result.events else [])
            else:
                choice = _choice(state, text)
                state, events = state.play(text)
        except EngineError as error:
            stop = ReplayStop(
                seq=seq, rule=error.rule, message=error.message_en, message_da=error.message_da
            )
            return GameReplay(tuple(frames), stop)
        frames.append(
            _frame(
                state,
                seq,
                text=text,
                judge=choice is None,
                choice=choice,
                events=tuple(event.to_json() for event in events),
            )
        )
    return GameReplay(tuple(frames), None)


def game_replay(*, game: Game) -> GameReplay:
    """The replay of ``game``'s active log, shared between processes by its chain head."""
    rows = list(active_entries(game=game).values("seq", "text", "hash"))
    seq, last = log_head(
        game.pk, rows[-1]["seq"] if rows else None, rows[-1]["hash"] if rows else None
    )
    record = game_record(game=game, moves=[row["text"] for row in rows])
    return replay_frames_cached(
        (game.pk, log_origin(game), seq, last),
        GameReplay,
        lambda: replay_frames(
            ruleset=record["ruleset"], first_dealer=record["first_dealer"], entries=rows
        ),
    )


def replay_rulings_placed(*, game: Game, frames: Sequence[ReplayFrame]) -> PlacedRulings:
    """The rulings given at ``game`` where they happened. A ruling is placed at the
    judge entry it wrote; one that wrote none (a warning, a result) is listed apart."""
    at: dict[int, list[ReplayRuling]] = {}
    other: list[ReplayRuling] = []
    used: set[int] = set()
    given: list[ReplayRuling] = []
    for _receiver, answer in replay_rulings_wanted.send(sender=Game, game=game):
        if isinstance(answer, list):
            given.extend(answer)
    for ruling in given:
        seq = next(
            (
                frame.seq
                for frame in frames
                if frame.judge and frame.seq not in used and frame.text in ruling.log
            ),
            None,
        )
        if seq is None:
            other.append(ruling)
            continue
        used.add(seq)
        at.setdefault(seq, []).append(ruling)
    return PlacedRulings(at=at, other=other)
