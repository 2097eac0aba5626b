"""Remaining distance and adjudication (RULES W3)."""

import dataclasses

from games.engine import Position, adjudicate, remaining_distance
from games.engine.ruleset import DM2023

from .helpers import P


def test_w3_initial_distances():
    d = remaining_distance(Position.initial())
    assert d["pawns"]["Y"] == [61, 61, 61, 61]
    assert d["teams"] == {"YB": 8 * 61, "RG": 8 * 61}


def test_w3_per_pawn_values():
    p = P(Y=["YS", "Y1", "G14", "YM1"], R=["RM2", "RM4"])
    d = remaining_distance(p)
    assert d["pawns"]["Y"] == [60, 59, 0, 4]  # start field 60, Y1 59, locked 0, G14 4
    assert d["pawns"]["R"] == [61, 61, 1, 3]  # unlocked RM2 needs 1 step, RM4 3
    assert d["teams"]["YB"] == 123 + 4 * 61


def test_w3_adjudicate_by_distance():
    p = P(Y=["G10"], R=["R1"])
    a = adjudicate(p)
    assert a["winner"] == "YB" and a["order"] == "distance"
    assert a["teams"]["YB"]["distance"] < a["teams"]["RG"]["distance"]
    assert "W3" in a["reason_en"] and "W3" in a["reason_da"]


def test_w3_tie_and_locked_first_setting():
    assert adjudicate(Position.initial())["winner"] is None
    p = P(Y=["YM1"], R=["Y14", "Y13", "Y12", "Y11"])
    assert adjudicate(p)["winner"] == "RG"
    locked_first = dataclasses.replace(DM2023, adjudication="locked_then_distance")
    assert adjudicate(p, locked_first)["winner"] == "YB"


def test_w1_won_position_adjudicates_to_winner():
    p = P(R=["RM1", "RM2", "RM3", "RM4"], G=["GM1", "GM2", "GM3", "GM4"])
    assert adjudicate(p)["winner"] == "RG"
