"""Positions: parse, format, validate (NOTATION "Position"; RULES S2, T1, F1, F2, B5)."""

import pytest

from games.engine import Position, PositionError

from .helpers import P


def test_s2_initial_position():
    p = Position.initial()
    assert p.to_json() == {s: [s + "H"] * 4 for s in "YRBG"}


def test_round_trip_and_location_order():
    data = {
        "Y": ["YH", "YH", "YS", "Y3"],
        "R": ["RM1", "RM4", "Y13", "RH"],
        "B": ["BH", "BH", "BH", "BH"],
        "G": ["G7", "GH", "GH", "GH"],
    }
    p = Position.from_json(data)
    out = p.to_json()
    assert out["R"] == ["Y13", "RH", "RM1", "RM4"]  # location order: Y before R, H before M
    assert out["G"] == ["GH", "GH", "GH", "G7"]
    assert Position.from_json(out) == p
    assert hash(Position.from_json(out)) == hash(p)


def test_pawn_order_does_not_matter():
    a = P(Y=["Y3", "YS"])
    b = P(Y=["YS", "Y3"])
    assert a == b and len({a, b}) == 1


@pytest.mark.parametrize(
    ("data", "rule"),
    [
        ({"Y": ["YH"] * 3, "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4}, "S2"),
        ({"Y": ["YH"] * 5, "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4}, "S2"),
        (
            {
                "Y": ["Y3", "YH", "YH", "YH"],
                "R": ["Y3", "RH", "RH", "RH"],
                "B": ["BH"] * 4,
                "G": ["GH"] * 4,
            },
            "T1",
        ),
        ({"Y": ["RS", "YH", "YH", "YH"], "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4}, "B5"),
        ({"Y": ["RM1", "YH", "YH", "YH"], "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4}, "B5"),
        ({"Y": ["RH", "YH", "YH", "YH"], "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4}, "B5"),
        (
            {"Y": ["YM2", "YM2", "YH", "YH"], "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4},
            "F1",
        ),
        ({"Y": ["Y15", "YH", "YH", "YH"], "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4}, "B5"),
        ({"Y": ["YH"] * 4, "R": ["RH"] * 4, "B": ["BH"] * 4}, "N"),
        ({"Y": ["YH"] * 4, "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4, "X": []}, "N"),
        ("not a dict", "N"),
    ],
)
def test_invalid_positions_are_rejected(data, rule):
    with pytest.raises(PositionError) as e:
        Position.from_json(data)
    assert e.value.rule == rule
    assert e.value.message_en and e.value.message_da


def test_same_colour_may_share_fields_and_start_field():
    p = P(Y=["YS", "YS", "Y3", "Y3"])
    assert p.pawns("Y") == ["YS", "YS", "Y3", "Y3"]


def test_f2_locked_from_the_inside_out():
    assert P(R=["RM1", "RM2", "RM4"]).locked("R") == ["RM1", "RM2"]
    assert P(R=["RM2", "RM3"]).locked("R") == []  # RM1 empty: nothing locked
    p = P(R=["RM1", "RM3"])
    assert p.is_locked("RM1") and not p.is_locked("RM3") and not p.is_locked("Y3")


def test_w1_winner_of_position():
    done = P(Y=["YM1", "YM2", "YM3", "YM4"], B=["BM1", "BM2", "BM3", "BM4"])
    assert done.winner() == "YB" and done.is_finished("Y")
    assert P(Y=["YM1", "YM2", "YM3", "YM4"]).winner() is None
