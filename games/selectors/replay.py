"""Reads of a finished game's replay: every position of its log, with the engine at hand.

A replay is a list of frames: frame 0 is the start, frame ``n`` the game
after the log's ``n``-th entry. Each frame carries what the replay page and
the stream overlay draw (the position, locked pawns, the seat to move, the
remaining distance of both sides) and, for a player's move, the engine's
legal moves for the card that was played before it was played, and which
one the player chose. Everything comes from the engine's public functions
(``games.engine``: ``initial_state``, ``state.play``, ``replay``,
``position_legal_moves``, ``remaining_distance``), so every ruleset answers
the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


def _frame(state: AnyState) -> dict[str, Any]:
    rules = state.ruleset
    position = state.position
    return {
        "position": position.to_json(),
        "locked": {seat: position.locked(seat) for seat in rules.seats},
        "to_move": state.to_move,
        "hand_sizes": dict(state.hand_sizes),
        "winner": state.winner,
        "distance": dict(remaining_distance(position, rules)["teams"]),
    }


def _choice(state: AnyState, text: str) -> dict[str, Any]:
    """The card a player's entry played, the engine's legal moves for it and the choice."""
    seat, _, move = text.partition(" ")
    card = move.split(":", 1)[0].strip()
    if card == DISCARD_CARD:
        return {"seat": seat, "card": None, "legal": [], "legal_count": 0, "chosen": None}
    legal = position_legal_moves(state.position, seat, card, state.ruleset)
    listed = legal[:LEGAL_LISTED]
    if move in legal and move not in listed:
        listed[-1] = move
    return {
        "seat": seat,
        "card": card,
        "legal": listed,
        "legal_count": len(legal),
        "chosen": move,
        "chosen_legal": move in legal,
    }


def replay_frames(
    *, ruleset: str, first_dealer: str, entries: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """Every position of a log: ``{"frames": [...], "error": None | {...}}``.

    ``entries`` are the active entries in order (``seq``, ``text``). A judge
    entry may refer to earlier entries (a void replays from the start), so
    the game after it is the engine's replay of the log up to it; a player's
    entry is played on the state before it. The frames stop at the first
    entry the engine refuses (``error`` says which).
    """
    rules = get_ruleset(ruleset)
    state: AnyState = initial_state(first_dealer, rules)
    frames: list[dict[str, Any]] = [{"seq": 0, **_frame(state)}]
    texts: list[str] = []
    for entry in entries:
        text = str(entry["text"])
        texts.append(text)
        ply: dict[str, Any] = {"seq": entry["seq"], "text": text}
        try:
            if text.startswith(JUDGE_PREFIX):
                result = replay({"ruleset": ruleset, "first_dealer": first_dealer, "moves": texts})
                if result.first_error is not None:
                    error = {"seq": entry["seq"], **result.first_error.to_json()}
                    return {"frames": frames, "error": error}
                state, events = result.state, list(result.events[-1] if result.events else [])
                ply["judge"] = True
            else:
                ply.update(_choice(state, text))
                state, events = state.play(text)
        except EngineError as refused:
            return {"frames": frames, "error": {"seq": entry["seq"], **refused.to_json()}}
        ply["events"] = [event.to_json() for event in events]
        frames.append({**ply, **_frame(state)})
    return {"frames": frames, "error": None}


def game_replay(*, game: Game) -> dict[str, Any]:
    """The replay of ``game``'s active log, shared between processes by its chain head."""
    rows = list(active_entries(game=game).values("seq", "text", "hash"))
    seq, last = log_head(
        game.pk, rows[-1]["seq"] if rows else None, rows[-1]["hash"] if rows else None
    )
    record = game_record(game=game, moves=[row["text"] for row in rows])
    return replay_frames_cached(
        (game.pk, log_origin(game), seq, last),
        lambda: replay_frames(
            ruleset=record["ruleset"], first_dealer=record["first_dealer"], entries=rows
        ),
    )


def replay_rulings_placed(*, game: Game, frames: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The rulings given at ``game`` where they happened: ``{"at": {seq: [ruling, …]},
    "other": [ruling, …]}``. A ruling is placed at the judge entry it wrote; one that
    wrote none (a warning, a result) is listed apart."""
    at: dict[int, list[dict[str, Any]]] = {}
    other: list[dict[str, Any]] = []
    used: set[int] = set()
    answers: list[tuple[Any, Any]] = replay_rulings_wanted.send(sender=Game, game=game)
    for _receiver, answer in answers:
        ruling: dict[str, Any]
        for ruling in answer or ():
            seq = next(
                (
                    int(frame["seq"])
                    for frame in frames
                    if frame.get("judge")
                    and frame["seq"] not in used
                    and frame["text"] in ruling["log"]
                ),
                None,
            )
            if seq is None:
                other.append(ruling)
                continue
            used.add(seq)
            at.setdefault(seq, []).append(ruling)
    return {"at": at, "other": other}
