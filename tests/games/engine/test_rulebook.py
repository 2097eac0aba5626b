"""Ruleset ``rulebook``: reference positions and move sets (docs/rulesets/rulebook.md).

Each test names the rule id of the reading and quotes its seed (EN 001, DA 003).
"""

from __future__ import annotations

import pytest

from games.engine import (
    SEATS,
    IllegalMoveError,
    Position,
    PositionError,
    adjudicate,
    apply_move,
    legal_moves,
    remaining_distance,
    replay,
    selfplay_game,
)
from games.engine.ruleset import RULEBOOK

from .invariants import rulebook_problem_after


def RP(**colours: list[str]) -> Position:
    """A rulebook position; unlisted pawns are in their Start."""
    return Position.from_json(
        {s: list(colours.get(s, [])) + [s + "H"] * (4 - len(colours.get(s, []))) for s in SEATS},
        RULEBOOK,
    )


def legal(p: Position, seat: str, card: str) -> list[str]:
    return [str(m) for m in legal_moves(p, seat, card, RULEBOOK)]


def after(p: Position, seat: str, move: str) -> dict[str, list[str]]:
    return apply_move(p, seat, move, RULEBOOK).position.to_json()


def events(p: Position, seat: str, move: str) -> list[tuple[str, str, str]]:
    return [(e.type, e.colour, e.at) for e in apply_move(p, seat, move, RULEBOOK).events]


def refused(p: Position, seat: str, move: str) -> str:
    with pytest.raises(IllegalMoveError) as e:
        apply_move(p, seat, move, RULEBOOK)
    assert e.value.message_en and e.value.message_da
    return e.value.rule


# B1, B2: "A pawn that moves forward passes 15 and not 0" — every space counts
def test_b2_every_space_counts_y12_plus_5_is_r2():
    assert after(RP(Y=["Y12"]), "Y", "5: Y12+5")["Y"][-1] == "R2"


# B4: from P14 a pawn arrives on own 15, then House 16, 17 ("G12 + 5 -> YM3")
def test_b4_into_house_through_own_15():
    assert after(RP(Y=["G12"]), "Y", "5: G12+5")["Y"][-1] == "YM3"
    assert after(RP(Y=["G12"]), "Y", "3: G12+3")["Y"][-1] == "Y15"


# F1: "Only one Pawn can be on each space in House", beyond 19 impossible
def test_f1_beyond_19_is_impossible():
    assert legal(RP(Y=["G14"]), "Y", "6") == []
    assert refused(RP(Y=["G14"]), "Y", "6: G14+6") == "F1"
    assert legal(RP(Y=["G14"]), "Y", "5") == ["5: G14+5"]


# F1: "Pawns in House cannot be passed"; no bouncing (F5)
def test_f1_house_pawns_cannot_be_passed_nor_landed_on():
    p = RP(Y=["Y15", "YM3"])
    assert legal(p, "Y", "3") == []
    assert refused(p, "Y", "3: Y15+3") == "F1"
    assert legal(p, "Y", "1") == ["1: Y15+1", "1: YM3+1"]  # F3: inside House


# F3 (Decision): a House pawn moves forward inside House with an exact count
def test_f3_house_pawn_moves_forward_inside_house():
    assert legal(RP(Y=["YM4"]), "Y", "3") == ["3: YM4+3"]
    assert legal(RP(Y=["YM4"]), "Y", "4") == []  # F7: no ÷4 from House


# C4: "from X3 the four steps are X2 X1 XS P14"; from X4 it ends on own 0
def test_c4_back_4_counts_own_0():
    assert after(RP(Y=["Y3"]), "Y", "4: Y3-4")["Y"][-1] == "G14"
    assert after(RP(Y=["Y4"]), "Y", "4: Y4-4")["Y"][-1] == "YS"
    assert after(RP(Y=["YS"]), "Y", "4: YS-4")["Y"][-1] == "G11"
    assert after(RP(Y=["Y15"]), "Y", "4: Y15-4")["Y"][-1] == "G11"


# T8: "A pawn on 0 is moved onto the Track and cannot be moved to 15 or Home"
def test_t8_pawn_on_own_0_moves_onto_the_track():
    assert legal(RP(Y=["YS"]), "Y", "5") == ["5: YS+5"]
    assert after(RP(Y=["YS"]), "Y", "5: YS+5")["Y"][-1] == "Y5"


# T9: "A pawn on 15 can be moved in House or moved backwards with a ÷4 Card"
def test_t9_pawn_on_own_15_goes_into_house_only():
    assert legal(RP(Y=["Y15"]), "Y", "2") == ["2: Y15+2"]
    assert after(RP(Y=["Y15"]), "Y", "2: Y15+2")["Y"][-1] == "YM3"
    assert legal(RP(Y=["Y15"]), "Y", "5") == []


# T4: "A pawn on 0 blocks so the pawn of the other three players cannot pass 0/15"
def test_t4_own_0_pawn_blocks_others_in_both_directions():
    p = RP(Y=["YS"], G=["G13"], R=["Y2"])
    assert legal(p, "G", "3") == []
    assert refused(p, "G", "3: G13+3") == "T4"
    assert refused(p, "R", "4: Y2-4") == "T4"


# T3 Decision: two pawns on 0/15 do not block passing
def test_t3_pair_on_0_15_does_not_block_passing():
    p = RP(R=["YS", "YS"], G=["G13"])
    assert legal(p, "G", "5") == ["5: G13+5"]


# T7: "the pawn on 15 will be hit home by the coming pawn which will be hit home by the pawn on 0"
def test_t7_landing_on_0_15_hits_own_15_then_own_0_hits_lander():
    p = RP(Y=["YS", "Y15"], G=["G12"])
    assert events(p, "G", "3: G12+3") == [("hit", "Y", "Y15"), ("hit", "G", "YS")]
    res = after(p, "G", "3: G12+3")
    assert res["Y"] == ["YH", "YH", "YH", "YS"] and res["G"] == ["GH"] * 4


# T7: a single pawn on own 15 "can be hit back to Start by an opponent or co-player"
def test_t7_single_pawn_on_own_15_is_hit_by_anyone():
    p = RP(Y=["Y15"], B=["G13"])
    assert events(p, "B", "2: G13+2") == [("hit", "Y", "Y15")]
    assert "YS" in after(p, "B", "2: G13+2")["B"]


# T6: "Two pawns of 0/15 are safe"; two on own 15 are safe and hit the lander
def test_t6_two_pawns_on_own_15_hit_the_lander():
    p = RP(Y=["Y15", "Y15"], G=["G13"])
    assert events(p, "G", "2: G13+2") == [("hit", "G", "YS")]


# C8: "Two pawns of 0/15 … block for moving a pawn from Start to 0"
def test_c8_two_pawns_on_0_15_block_entering():
    p = RP(R=["YS", "YS"])
    assert legal(p, "Y", "8") == []
    assert refused(p, "Y", "11: in") == "C8"


# C8: "A pawn on 0/15 can be hit home to Start"
def test_c8_entering_hits_a_single_pawn_on_0_15():
    p = RP(R=["YS"])
    assert events(p, "Y", "11: in") == [("hit", "R", "YS")]


# C9: "Safe pawns cannot be swapped"; "Pawns cannot be swapped to or from 15"
def test_c9_swap_only_single_track_pawns():
    p = RP(Y=["YS", "Y15", "Y5"], R=["R3", "R3", "R7"], B=["BM2"], G=["BS"])
    assert legal(p, "Y", "J") == ["J: Y5<>R7", "J: Y5<>BS", "J: R7<>BS"]
    assert refused(p, "Y", "J: YS<>R7") == "C9"
    assert refused(p, "Y", "J: Y15<>R7") == "C9"


# C9 Decision: a pawn is never swapped onto its own 0
def test_c9_no_swap_onto_own_0():
    p = RP(Y=["Y5"], G=["YS"])
    assert legal(p, "Y", "J") == []
    assert refused(p, "Y", "J: Y5<>YS") == "C9"


# C7: the rest of a 7 goes to the partner once the fourth own pawn is in House
def test_c7_rest_goes_to_the_partner():
    p = RP(Y=["YM1", "YM2", "YM3", "Y15"], B=["B3"])
    moves = legal(p, "Y", "7")
    assert "7: Y15+1 B3+6" in moves
    assert all(m.startswith("7: Y15+1 ") for m in moves)
    assert after(p, "Y", "7: Y15+1 B3+6")["B"][-1] == "B9"


# W1: "The two partners who first get all the pawns in House have won"
def test_w1_all_eight_in_house_wins_and_drops_the_rest():
    p = RP(Y=["YM1", "YM2", "YM3", "YM4"], B=["BM1", "BM2", "BM3", "R14"])
    assert legal(p, "Y", "7") == ["7: R14+2"]
    assert legal(p, "Y", "2") == ["2: R14+2"]
    done = apply_move(p, "Y", "2: R14+2", RULEBOOK).position
    assert done.winner() == "YB"


# B7: position invariants of the rulebook board
@pytest.mark.parametrize(
    ("colours", "rule"),
    [
        ({"Y": ["Y15"], "G": ["YS"]}, "B7"),
        ({"Y": ["R15"]}, "B5"),
        ({"Y": ["YM2", "YM2"]}, "F1"),
        ({"Y": ["R3"], "G": ["R3"]}, "T1"),
    ],
)
def test_b7_invalid_positions(colours, rule):
    with pytest.raises(PositionError) as e:
        RP(**colours)
    assert e.value.rule == rule


def test_b5_other_colours_may_stand_on_0_15_and_to_json_keeps_location_order():
    p = RP(Y=["YM1", "Y15", "Y14", "YS"], G=["RS"])
    assert p.to_json()["Y"] == ["YS", "Y14", "Y15", "YM1"]
    assert p.to_json()["G"] == ["RS", "GH", "GH", "GH"]


def test_dm2023_still_refuses_rulebook_codes():
    with pytest.raises(PositionError):
        Position.from_json(
            {"Y": ["Y15", "YH", "YH", "YH"], "R": ["RH"] * 4, "B": ["BH"] * 4, "G": ["GH"] * 4}
        )


# W3 Decision: distance to House; House 0, own 15 1, own 0 61, Start 62
def test_w3_distance_to_house():
    p = RP(Y=["YM4", "Y15", "YS"], R=["G14"])
    assert remaining_distance(p, RULEBOOK)["pawns"]["Y"] == [62, 61, 1, 0]
    verdict = adjudicate(p, RULEBOOK)
    assert verdict["order"] == "distance_to_house"
    assert verdict["winner"] == "YB"


# D4: a discard is checked against the position (NOTATION.md apply)
def test_d4_discard_checked_against_the_position():
    p = RP(Y=["Y3", "Y4", "Y5", "Y6"])
    assert apply_move(p, "Y", "X: 11", RULEBOOK).position == p
    with pytest.raises(IllegalMoveError) as e:
        apply_move(p, "Y", "X: 5 11", RULEBOOK)
    assert e.value.rule == "D4"


def test_selfplay_games_replay_with_invariants_after_every_move():
    for seed in range(500):
        record = selfplay_game(seed, RULEBOOK)
        res = replay(record)
        assert res.ok and res.winner is not None, (seed, res.first_error)
        assert rulebook_problem_after(record) is None, seed


# J1 with the rulebook's codes: a judge's position correction reads X15 in a rulebook record
def test_judge_set_reads_the_rulebook_board_and_dm2023_still_refuses_it():
    record = {
        "ruleset": "rulebook",
        "first_dealer": "Y",
        "moves": ["! SET Y=YH,YH,YS,Y15 R=RH,RH,RH,YS B=BH,BH,BH,BH G=GH,GH,GH,GH"],
    }
    res = replay(record)
    assert not res.ok and res.first_error.rule in ("B5", "B7")  # Y15 and red on YS
    record["moves"] = ["! SET Y=YH,YH,YS,Y15 R=RH,RH,RH,R3 B=BH,BH,BH,BH G=GH,GH,GH,GH"]
    res = replay(record)
    assert res.ok and res.position.pawns("Y") == ["YH", "YH", "YS", "Y15"]
    dm = replay(dict(record, ruleset="dm2023"))
    assert not dm.ok and dm.first_error.rule == "B5"
