"""Property tests: the engine against a naive second implementation (reference.py).

Random positions are biased towards finish areas, start fields and the fields
before a finish, where the rules are subtle (T4, F1–F7, C7).
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import CARDS, SEATS, Position, apply_move, legal_moves, parse_move

from . import reference as ref
from .positions import random_position_json

positions = st.integers(min_value=0, max_value=2**32).map(
    lambda seed: random_position_json(random.Random(seed))
)
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(positions, st.sampled_from(SEATS), st.sampled_from(CARDS))
def test_legal_moves_match_reference(data, seat, card):
    pos = Position.from_json(data)
    got = [str(m) for m in legal_moves(pos, seat, card)]
    assert len(got) == len(set(got)), "duplicates"
    assert sorted(got, key=lambda t: parse_move(t).sort_key()) == got, "not sorted"
    if pos.winner() is None:
        assert set(got) == ref.legal(data, seat, card)
    else:
        assert got == []


@FAST
@given(positions, st.sampled_from(SEATS), st.sampled_from(CARDS))
def test_every_listed_move_applies_like_the_reference(data, seat, card):
    pos = Position.from_json(data)
    for move in legal_moves(pos, seat, card)[:10]:
        res = apply_move(pos, seat, move)
        Position.from_json(res.position.to_json())  # the result is a valid position
        if move.kind == "steps" and len(move.steps) == 1:
            ((loc, n),) = move.steps
            c = ref.mover(data, seat)
            want = ref.play_part(data, c, loc, abs(n), n > 0)
            assert want is not None
            state, evs = want
            assert res.position == Position.from_json(state)
            assert [(e.type, e.colour, e.at) for e in res.events] == evs


@FAST
@given(
    positions,
    st.sampled_from(SEATS),
    st.sampled_from(CARDS),
    st.sampled_from(["Y", "R", "B", "G"]),
    st.integers(1, 14),
    st.integers(1, 14),
)
def test_illegal_moves_are_refused_with_a_rule(data, seat, card, q, field, n):
    """Any readable move not in legal_moves is refused with a RULES.md id."""
    pos = Position.from_json(data)
    legal = {str(m) for m in legal_moves(pos, seat, card)}
    sign = "-" if card == "4" else "+"
    for text in (f"{card}: {q}{field}{sign}{n}", f"{card}: in", f"{card}: {q}{field}<>{q}{n}"):
        m = parse_move(text)
        try:
            apply_move(pos, seat, m)
            assert str(m) in legal, text
        except ValueError as e:
            assert str(m) not in legal, text
            assert getattr(e, "rule", None) in {
                "S3",
                "T4",
                "F1",
                "F3",
                "F5",
                "F6",
                "F7",
                "C2",
                "C3",
                "C4",
                "C5",
                "C6",
                "C7",
                "C8",
                "C9",
                "W1",
            }, (text, e)


@FAST
@given(positions)
def test_position_json_round_trip(data):
    pos = Position.from_json(data)
    assert Position.from_json(pos.to_json()) == pos
    for s in SEATS:
        assert sorted(data[s]) == sorted(pos.to_json()[s])
