"""A fingerprint of what the DUO engine answers, to check that a speed-up changed nothing.

Run from the repository root before and after a change to the DUO engine:
``python bench/duo_fingerprint.py [--games N]``; the printed SHA-256 must not
change. It hashes, over N seeded self-play games (default 100): the replay
answer of ``games.engine.replay`` and of ``duo.replay`` (events and state
included), the state and events after every entry (through ``DuoGame`` and,
for every tenth game, ``DuoState.play`` with the legal entries and effects),
seeded illegal and judge entries with their rule ids and Danish and English
texts, ``apply_move``, split-4 ``legal_moves`` and ``remaining_distance``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import EngineError, duo, replay
from games.engine.duo.game import DuoGame, DuoState
from games.engine.ruleset import DUO

JUDGE_ENTRIES = (
    "! P1 Y",
    "! P1 R",
    "! WARN R",
    "! P2 R RO7",
    "! UNDO 3",
    "! VOID 2 3 KEEP 3",
    "! SET YK=YKH,YKH,YKS RK=RKH,RKH,RKH YO=YOH,YOH,YO7 RO=ROH,ROH,ROM1",
    "! RESULT Y",
)


def _state(st: Any) -> list[Any]:
    return [
        st.position.to_json(),
        st.to_move,
        st.dealer,
        st.deal_number,
        st.hand_sizes,
        st.cards_seen,
        st.winner,
        st.finished_seats,
        st.first_dealer,
        st.penalised,
    ]


def _answer(res: Any) -> list[Any]:
    return [res.to_json(), [[e.to_json() for e in row] for row in res.events], _state(res.state)]


def _spoilt(moves: list[str], rng: random.Random) -> list[str]:
    """The record with one entry made illegal or unreadable, or a judge entry put in."""
    bad = list(moves)
    i = rng.randrange(len(moves))
    kind = rng.randrange(6)
    if kind == 0:
        bad[i] = moves[rng.randrange(len(moves))]
    elif kind == 1:
        bad[i] = ("R" if moves[i][0] == "Y" else "Y") + moves[i][1:]
    elif kind == 2:
        bad[i] = moves[i][:2] + "X: 5 7 9 3"
    elif kind == 3:
        bad[i] = moves[i].replace("+", "-")
    elif kind == 4:
        bad[i] = moves[i] + "x"
    else:
        bad.insert(i, JUDGE_ENTRIES[rng.randrange(len(JUDGE_ENTRIES))])
    return bad


def fingerprint(games: int) -> str:
    """The SHA-256 of the answers over ``games`` seeded DUO self-play games."""
    digest = hashlib.sha256()

    def put(value: object) -> None:
        digest.update(json.dumps(value, sort_keys=True, default=repr).encode() + b"\n")

    for seed in range(games):
        record = duo.selfplay_game(seed, DUO)
        moves = record["moves"]
        put(_answer(replay(dict(record, ruleset="duo"))))
        own = duo.replay(record, DUO)
        put([own.to_json(), own.events])
        game = DuoGame(DUO, duo.PLAYERS.index(record["first_dealer"]), None)
        state = DuoState.initial(record["first_dealer"], DUO)
        for i, text in enumerate(moves):
            put([game.entry(text, moves, i), _state(game.snapshot())])
            if seed % 10 == 0:
                state, events = state.play(text)
                put([_state(state), [e.to_json() for e in events]])
                if i % 7 == 0:
                    put(state.legal_entries_with_effects())
        rng = random.Random(seed)
        for _ in range(8):
            bad = _spoilt(moves, rng)
            put(_answer(replay(dict(record, ruleset="duo", moves=bad))))
            put(duo.replay(dict(record, moves=bad), DUO).to_json())
        position = duo.DuoPosition.initial(DUO.board_fields)
        for text in moves[:30]:
            seat, move = text[0], text[2:]
            try:
                applied = duo.apply_move(position, seat, move)
                put([applied.position.to_json(), applied.events])
                position = applied.position
            except EngineError as e:
                put([e.rule, e.message_en, e.message_da])
            put([str(m) for m in duo.legal_moves(position, seat, "4")])
        put(duo.remaining_distance(position))
    return digest.hexdigest()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    print(fingerprint(parser.parse_args().games))
