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

GAMES = 2000
CHUNKS = 4
REPLAY_EVERY = 4  # self-play itself runs every move through the replay engine's Game


_RING = frozenset(lid for lid in range(80) if 2 <= lid % 20 <= 15)
_ALLOWED = tuple(_RING | {c * 20 + k for k in (0, 1, 16, 17, 18, 19)} for c in range(4))
_GOALS = tuple(tuple(c * 20 + 16 + m for m in range(4)) for c in range(4))


def check_invariants(locs, prev_locked):
    """16 pawns, 4 per colour; never two colours on a field; nobody on another colour's
    start circle, start field or goal circle; one pawn per goal circle; locked pawns
    never move (the locked count of a colour never falls). Set operations keep this
    cheap enough to run before every turn of every game."""
    assert len(locs) == 16
    rings = []
    for c in range(4):
        own = locs[4 * c : 4 * c + 4]
        assert _ALLOWED[c].issuperset(own), "pawn on another colour's circle or start field"
        rings.append(_RING.intersection(own))
        g0, g1, g2, g3 = _GOALS[c]
        assert own.count(g0) < 2 and own.count(g1) < 2 and own.count(g2) < 2 and own.count(g3) < 2
        n = (
            0
            if g0 not in own
            else 1
            if g1 not in own
            else 2
            if g2 not in own
            else 3
            if g3 not in own
            else 4
        )
        assert n >= prev_locked[c], "a locked pawn moved (F3)"
        prev_locked[c] = n
    r0, r1, r2, r3 = rings
    assert len(r0 | r1 | r2 | r3) == len(r0) + len(r1) + len(r2) + len(r3), "two colours on a field"


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_selfplay_games_keep_invariants_and_replay(chunk):
    per = GAMES // CHUNKS
    for seed in range(chunk * per, (chunk + 1) * per):
        prev_locked = [0, 0, 0, 0]

        def observe(locs, seat, hand, prev_locked=prev_locked):
            check_invariants(locs, prev_locked)
            assert 1 <= len(hand) <= 4

        rec = play_game(seed, observe=observe)
        assert rec["players"] == {s: f"Bot {s}" for s in SEATS}
        if seed % REPLAY_EVERY == 0:
            res = replay(rec)
            assert res.ok, (seed, res.first_error)
            assert res.moves_checked == len(rec["moves"])
            assert res.winner in ("YB", "RG")
            assert res.position.winner() == res.winner
            check_invariants(res.position.locs, prev_locked)


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
    play_game(seed, observe=lambda locs, s, hand: turns.append((locs, s)))
    for locs, s in turns[::7]:
        pos = Position(locs)
        state = {k: list(v) for k, v in pos.to_json().items()}
        for card in ("1", "4", "5", "7", "8", "J"):
            got = {str(m) for m in legal_moves(pos, SEATS[s], card)}
            assert got == ref.legal(state, SEATS[s], card), (pos.to_json(), s, card)
