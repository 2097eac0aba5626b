"""Self-play: 2,000 complete seeded games with invariants after every move.

Cost control (the engine suite must stay well under a minute on 2 cores):
the cheap invariants run before every turn of all 2,000 games (self-play
drives the same ``Game`` that replay uses, so every move is validated as in a
replay); every fourth record is also replayed through ``replay``; the
expensive cross-checks (the played move is among ``legal_moves``, every
listed move applies, the generators against the naive reference) run on
every turn of a subset of games.
"""

import random

import pytest

from games.engine import SEATS, GameState, Position, apply_move, legal_moves, replay, selfplay_game
from games.engine.selfplay import play_game

from . import reference as ref
from .invariants import problem

GAMES = 2000
CHUNKS = 4
REPLAY_EVERY = 4  # self-play itself runs every move through the replay engine's Game


def check_invariants(locs, prev_locked):
    """See :func:`invariants.problem`."""
    found = problem(locs, prev_locked)
    assert found is None, (found, locs)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_selfplay_games_keep_invariants_and_replay(chunk):
    per = GAMES // CHUNKS
    for seed in range(chunk * per, (chunk + 1) * per):
        prev_locked = [0, 0, 0, 0]

        def observe(locs, seat, hand, prev_locked=prev_locked, seed=seed):
            found = problem(locs, prev_locked)
            if found is not None or not (seat == -1 or 1 <= len(hand) <= 4):
                raise AssertionError((seed, found, locs, hand))

        rec = play_game(seed, observe=observe)
        assert rec["players"] == {s: f"Bot {s}" for s in SEATS}
        if seed % REPLAY_EVERY == 0:
            res = replay(rec)
            assert res.ok, (seed, res.first_error)
            assert res.moves_checked == len(rec["moves"])
            assert res.winner in ("YB", "RG")
            assert res.position.winner() == res.winner


def test_selfplay_is_deterministic_per_seed():
    assert selfplay_game(5) == selfplay_game(5)
    assert selfplay_game(5) != selfplay_game(6)
    assert selfplay_game(5, first_dealer="B")["first_dealer"] == "B"


@pytest.mark.parametrize("seed", range(10_000, 10_012))
def test_selfplay_moves_are_listed_and_every_listed_move_applies(seed):
    rec = selfplay_game(seed)
    res = replay(rec)
    st = GameState.initial(rec["first_dealer"])
    rng = random.Random(seed)
    for entry in rec["moves"]:
        seat, move = entry.split(" ", 1)
        pos = st.position
        if not move.startswith("X:"):
            card = move.split(":")[0]
            listed = legal_moves(pos, seat, card)
            assert move in [str(m) for m in listed], (seed, entry)
            for m in rng.sample(listed, min(len(listed), 8)):
                apply_move(pos, seat, m)
        st, _ = st.play(entry)
    assert st.winner == res.winner and st.position == res.position


@pytest.mark.parametrize("seed", range(20_000, 20_003))
def test_selfplay_positions_against_naive_reference(seed):
    turns = []
    play_game(seed, observe=lambda locs, s, hand: s >= 0 and turns.append((locs, s)))
    for locs, s in turns[::7]:
        pos = Position(locs)
        state = {k: list(v) for k, v in pos.to_json().items()}
        for card in ("1", "4", "5", "7", "8", "J"):
            got = {str(m) for m in legal_moves(pos, SEATS[s], card)}
            assert got == ref.legal(state, SEATS[s], card), (pos.to_json(), s, card)
