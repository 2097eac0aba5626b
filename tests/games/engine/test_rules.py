"""One or more tests per RULES.md id (moves, landing, finish area, cards)."""

import pytest

from games.engine import IllegalMoveError, NotationError, apply_move

from .helpers import P, after, events, legal


def rule_of(position, seat, move):
    with pytest.raises(IllegalMoveError) as e:
        apply_move(position, seat, move)
    assert e.value.message_en and e.value.message_da
    return e.value.rule


# --- B: the board -----------------------------------------------------------


def test_b2_start_field_never_counted_forward():
    assert after(P(Y=["Y14"]), "Y", "1: Y14+1")["Y"][3] == "R1"
    assert after(P(Y=["YS"]), "Y", "1: YS+1")["Y"][3] == "Y1"


def test_b2_start_field_never_counted_backward():
    assert after(P(Y=["R1"]), "Y", "4: R1-4")["Y"][3] == "Y11"


def test_b4_path_enters_own_finish_never_passes_own_start():
    assert after(P(Y=["G14"]), "Y", "1: G14+1")["Y"][3] == "YM4"
    assert events(P(Y=["G13"]), "Y", "5: G13+5") == [("lock", "Y", "YM1")]
    assert after(P(R=["Y12"]), "R", "3: Y12+3")["R"][3] == "RM4"


# --- T: standing on fields ---------------------------------------------------


def test_t2_landing_on_empty_field():
    assert after(P(Y=["Y3"]), "Y", "5: Y3+5")["Y"][3] == "Y8"


def test_t2_joining_own_pawn_is_never_a_hit():
    p = P(Y=["Y3", "Y8"])
    assert after(p, "Y", "5: Y3+5")["Y"][2:] == ["Y8", "Y8"]
    assert events(p, "Y", "5: Y3+5") == []


def test_t2_hits_a_single_opponent_home():
    p = P(Y=["Y3"], R=["Y8"])
    res = apply_move(p, "Y", "5: Y3+5")
    assert res.position.pawns("R") == ["RH"] * 4
    assert [e.to_json() for e in res.events] == [{"type": "hit", "colour": "R", "at": "Y8"}]


def test_t2_hits_the_partner_too():
    p = P(Y=["Y3"], B=["Y8"])
    assert after(p, "Y", "5: Y3+5")["B"] == ["BH"] * 4
    assert events(p, "Y", "5: Y3+5") == [("hit", "B", "Y8")]


def test_t2_landing_on_a_pair_sends_the_mover_home():
    p = P(Y=["Y3"], R=["Y8", "Y8"])
    out = after(p, "Y", "5: Y3+5")
    assert out["Y"] == ["YH"] * 4 and out["R"] == ["Y8", "Y8", "RH", "RH"]
    assert events(p, "Y", "5: Y3+5") == [("hit", "Y", "Y8")]


def test_t2_hitting_oneself_home_on_purpose_is_legal():
    # DM FAQ "Må man slå sig selv hjem med vilje…? Ja" (T2)
    p = P(Y=["Y3", "Y2"], R=["Y8", "Y8"])
    assert "5: Y3+5" in legal(p, "Y", "5")


def test_t2_finished_player_lands_with_partner_colour():
    p = P(Y=["YM1", "YM2", "YM3", "YM4"], B=["B3", "B8"])
    assert after(p, "Y", "5: B3+5")["B"][2:] == ["B8", "B8"]
    assert events(p, "Y", "5: B3+5") == []


def test_t3_passing_any_number_of_pawns_is_allowed():
    p = P(Y=["Y3"], R=["Y5", "Y5", "Y5"])
    assert after(p, "Y", "5: Y3+5")["Y"][3] == "Y8"


def test_t4_start_field_blocks_forward():
    p = P(Y=["Y12"], R=["RS"])
    assert legal(p, "Y", "5") == []
    assert rule_of(p, "Y", "5: Y12+5") == "T4"
    assert "2: Y12+2" in legal(p, "Y", "2")  # may stop before the block, not pass it


def test_t4_start_field_blocks_backward():
    assert rule_of(P(Y=["R2"], R=["RS"]), "Y", "4: R2-4") == "T4"


def test_t4_own_start_field_does_not_block_own_pawns():
    # DM §2: red on field 3 plays -4 past its own occupied start field to 13
    p = P(R=["R3", "RS"])
    assert after(p, "R", "4: R3-4")["R"] == ["Y13", "RH", "RH", "RS"]


def test_t4_blocked_pawn_never_stops_short():
    p = P(Y=["Y13"], R=["RS"])
    assert legal(p, "Y", "3") == []
    assert legal(p, "Y", "1") == ["1: Y13+1"]


def test_t5_several_pawns_on_a_start_field_and_entering_onto_them():
    p = P(Y=["YS", "YS"])
    assert after(p, "Y", "11: in")["Y"] == ["YH", "YS", "YS", "YS"]


def test_t5_start_field_pawns_cannot_be_hit_or_swapped():
    p = P(Y=["G14"], G=["GS"])
    assert rule_of(p, "Y", "J: GS<>G14") == "C9"
    # a red pawn on G14 must pass yellow's occupied start field
    q = P(R=["G14"], Y=["YS"])
    assert rule_of(q, "R", "1: G14+1") == "T4"


def test_t6_c9_protected_pair_cannot_be_swapped():
    p = P(Y=["Y3", "Y3"], R=["R5"])
    assert rule_of(p, "R", "J: Y3<>R5") == "C9"
    assert legal(p, "R", "J") == []


# --- F: the finish area -----------------------------------------------------


def test_f1_cannot_jump_over_or_land_on_goal_pawn():
    p = P(R=["Y13", "RM4"])
    assert rule_of(p, "R", "5: Y13+5") == "F1"
    q = P(R=["Y14", "RM3"])  # enters RM4, meets RM3, turns on RM4 and comes back out
    assert after(q, "R", "2: Y14+2")["R"][0] == "Y14"


def test_f2_lock_target_and_lock_events():
    p = P(R=["Y12", "RM1"])
    assert events(p, "R", "5: Y12+5") == [("lock", "R", "RM2")]
    q = P(R=["Y14"])  # RM1 free: a pawn from the track may stop on RM2 unlocked
    res = apply_move(q, "R", "3: Y14+3")
    assert res.events == [] and res.position.locked("R") == []


def test_f3_locked_pawn_never_moves():
    p = P(R=["RM1", "RM2", "Y3"])
    assert rule_of(p, "R", "1: RM1+1") == "F3"
    assert rule_of(p, "R", "7: RM2+7") == "F3"
    assert all("RM1" not in m and "RM2" not in m for c in "12356789" for m in legal(p, "R", c))


def test_f5_turning_needs_a_circle_the_pawn_moved_onto():
    # a pawn on the track whose next step is into an occupied M4 cannot move
    assert rule_of(P(R=["Y14", "RM4"]), "R", "3: Y14+3") == "F1"
    # a pawn in the finish whose first step is blocked cannot move at all
    p = P(R=["RM4", "RM3", "RM1"])
    assert rule_of(p, "R", "5: RM4+5") == "F5"


def test_f5_first_step_into_occupied_circle_means_no_move():
    p = P(R=["RM1", "RM2", "RM4", "Y5"])
    q = P(R=["RM1", "RM3", "RM4"])
    assert legal(q, "R", "5") == ["5: RM3+5"]
    assert rule_of(q, "R", "2: RM4+2") == "F5"
    assert legal(p, "R", "2") == ["2: Y5+2"]  # RM4+2 would turn and end unlocked (F6)


def test_f5_ping_pong_locks():
    # RULES F5 worked: RM1 locked, RM4 occupied, RM3 plays 5 -> RM2 locked
    p = P(R=["RM1", "RM3", "RM4"])
    assert events(p, "R", "5: RM3+5") == [("lock", "R", "RM2")]


def test_f5_backward_out_of_m4_follows_track_rules():
    p = P(R=["RM1", "RM4"], Y=["Y14"])
    assert events(p, "R", "5: RM4+5") == [("hit", "Y", "Y14")]
    q = P(R=["RM1", "RM4"], Y=["Y14", "Y14"])
    assert events(q, "R", "5: RM4+5") == [("hit", "R", "Y14")]  # F6 allows it (T2)


def test_f5_turning_out_to_track_and_on_backwards_through_start_field():
    # 14 steps: RM4 in to RM2 (RM1 locked), out, then on backward along the track
    p = P(R=["RM1", "RM4"])
    assert after(p, "R", "1: RM4+14")["R"][0] == "Y5"


def test_f6_finish_pawn_must_lock_or_reach_track():
    p = P(R=["RM1", "RM4"])
    assert rule_of(p, "R", "3: RM4+3") == "F6"
    assert legal(p, "R", "3") == []
    assert legal(p, "R", "2") == ["2: RM4+2"]


def test_f6_track_pawn_may_end_unlocked_in_finish():
    assert after(P(R=["Y10"]), "R", "6: Y10+6")["R"][3] == "RM3"


def test_f7_minus_four_and_swap_never_touch_goal_circles():
    p = P(R=["RM3", "Y5"], Y=["Y9"])
    assert rule_of(p, "R", "4: RM3-4") == "F7"
    assert rule_of(p, "Y", "J: Y9<>RM3") == "F7"
    assert all("RM3" not in m for m in legal(p, "Y", "J"))


# --- C: the cards -------------------------------------------------------------


@pytest.mark.parametrize("card", ["2", "3", "5", "6", "9", "10", "12"])
def test_c2_plain_cards_move_one_pawn_exactly(card):
    p = P(Y=["Y1"])
    assert legal(p, "Y", card) == [f"{card}: Y1+{card}"]
    assert rule_of(p, "Y", f"{card}: Y1+1") == "C2"
    assert rule_of(p, "Y", f"{card}: in") == "C8"


def test_c3_one_or_fourteen():
    p = P(Y=["Y1"])
    assert legal(p, "Y", "1") == ["1: Y1+1", "1: Y1+14"]
    assert rule_of(p, "Y", "1: Y1+2") == "C3"


def test_c4_minus_four():
    p = P(Y=["Y6", "YS"])
    assert legal(p, "Y", "4") == ["4: YS-4", "4: Y6-4"]
    assert "G11" in after(p, "Y", "4: YS-4")["Y"]  # -4 from the start field
    assert rule_of(p, "Y", "4: Y6+4") == "C4"
    assert rule_of(p, "Y", "4: Y6-3") == "C4"
    assert rule_of(p, "Y", "4: YH-4") == "C8"


def test_c4_minus_four_from_start_field_hits_and_is_blocked_by_nothing_else():
    p = P(Y=["YS"], G=["G11"])
    assert events(p, "Y", "4: YS-4") == [("hit", "G", "G11")]


def test_c5_eight_thirteen_enter_or_move_eleven_only_enters():
    p = P(Y=["Y1"])
    assert legal(p, "Y", "8") == ["8: in", "8: Y1+8"]
    assert legal(p, "Y", "13") == ["13: in", "13: Y1+13"]
    assert legal(p, "Y", "11") == ["11: in"]
    assert rule_of(p, "Y", "11: Y1+11") == "C5"
    assert rule_of(p, "Y", "8: Y1+7") == "C5"


def test_c6_steps_used_in_full():
    p = P(Y=["Y12"], R=["RS"])
    assert rule_of(p, "Y", "5: Y12+5") == "T4"
    assert legal(p, "Y", "5") == []


def test_c7_splits_over_pawns_in_every_order():
    p = P(Y=["Y1", "B1"])
    moves = legal(p, "Y", "7")
    assert "7: Y1+7" in moves and "7: B1+7" in moves
    assert "7: Y1+3 B1+4" in moves and "7: B1+4 Y1+3" in moves
    assert len(moves) == len(set(moves)) == 2 + 2 * 6


def test_c7_two_pawns_on_one_field():
    p = P(Y=["Y1", "Y1"])
    moves = legal(p, "Y", "7")
    assert moves == [
        "7: Y1+1 Y1+6",
        "7: Y1+2 Y1+5",
        "7: Y1+3 Y1+4",
        "7: Y1+4 Y1+3",
        "7: Y1+5 Y1+2",
        "7: Y1+6 Y1+1",
        "7: Y1+7",
    ]
    assert after(p, "Y", "7: Y1+3 Y1+4")["Y"][2:] == ["Y4", "Y5"]


def test_c7_all_seven_steps_must_be_used():
    p = P(Y=["Y1"])
    assert rule_of(p, "Y", "7: Y1+5") == "C7"
    assert rule_of(p, "Y", "7: Y1+8") == "C7"
    assert rule_of(p, "Y", "7: Y1+0 Y1+7") == "C7"


def test_c7_each_pawn_at_most_once():
    p = P(Y=["Y1", "Y10"])
    assert rule_of(p, "Y", "7: Y1+3 Y4+4") == "C7"


def test_c7_entering_is_not_a_seven_move():
    assert rule_of(P(), "Y", "7: in") == "C7"
    assert legal(P(), "Y", "7") == []


def test_c7_rest_goes_to_partner_after_last_own_pawn_locks():
    p = P(Y=["YM1", "YM2", "YM3", "G13"], B=["B1"])
    moves = legal(p, "Y", "7")
    assert "7: G13+2 B1+5" in moves
    assert "7: G13+1 B1+6" not in moves  # G13+1 does not lock (YM4 is the target after 2)
    res = apply_move(p, "Y", "7: G13+2 B1+5")
    assert res.position.pawns("B")[3] == "B6"
    assert [e.type for e in res.events] == ["lock"]


def test_c7_rest_must_fit_partner_pawns():
    # the partner has no pawn in play: the 7 cannot lock Y's last pawn part-way
    p = P(Y=["YM1", "YM2", "YM3", "G13"])
    assert rule_of(p, "Y", "7: G13+2") == "C7"
    # only a 7 that turns on YM4 and goes back out remains (F5)
    assert legal(p, "Y", "7") == ["7: G13+7"]
    # ... but Y may not use partner pawns while own pawns are unlocked
    q = P(Y=["YM1", "YM2", "G10", "G13"], B=["B1"])
    assert rule_of(q, "Y", "7: B1+7") == "S3"


def test_c7_winning_seven_drops_unused_steps():
    p = P(Y=["YM1", "YM2", "YM3", "G13"], B=["BM1", "BM2", "BM3", "BM4"])
    assert legal(p, "Y", "7") == ["7: G13+2", "7: G13+7"]
    res = apply_move(p, "Y", "7: G13+2")
    assert res.position.winner() == "YB"
    assert (
        rule_of(
            P(Y=["YM1", "YM2", "YM3", "G13"], B=["BM1", "BM2", "BM3", "BM4"]), "Y", "7: G13+2 G10+5"
        )
        == "W1"
    )


def test_c8_entering():
    assert after(P(), "Y", "8: in")["Y"] == ["YH", "YH", "YH", "YS"]
    full = P(Y=["Y1", "Y2", "Y3", "Y4"])
    assert rule_of(full, "Y", "11: in") == "C8"
    assert rule_of(full, "Y", "5: in") == "C8"


def test_c8_finished_player_enters_partner_pawn():
    p = P(Y=["YM1", "YM2", "YM3", "YM4"])
    assert after(p, "Y", "11: in")["B"] == ["BH", "BH", "BH", "BS"]


def test_c9_swap_any_two_unprotected_pawns():
    p = P(Y=["Y3"], R=["R10"], B=["B2", "B7"])
    moves = legal(p, "G", "J")  # green needs no pawn in play
    assert moves == [
        "J: Y3<>R10",
        "J: Y3<>B2",
        "J: Y3<>B7",
        "J: R10<>B2",
        "J: R10<>B7",
        "J: B2<>B7",
    ]
    out = after(p, "G", "J: R10<>Y3")
    assert out["Y"][3] == "R10" and out["R"][0] == "Y3"
    assert events(p, "G", "J: Y3<>R10") == []


def test_c9_swap_refuses_start_fields_goal_circles_pairs_and_start_circles():
    p = P(Y=["YS", "Y3", "Y3"], R=["R5", "RM2"], G=["G1"])
    assert rule_of(p, "R", "J: YS<>R5") == "C9"
    assert rule_of(p, "R", "J: R5<>RM2") == "F7"
    assert rule_of(p, "R", "J: Y3<>R5") == "C9"
    assert rule_of(p, "R", "J: R5<>RH") == "C9"
    assert rule_of(p, "R", "J: R5<>R5") == "C9"
    assert rule_of(p, "R", "J: R5<>R6") == "C9"
    assert legal(p, "R", "J") == ["J: R5<>G1"]


def test_c9_card_mismatch():
    p = P(Y=["Y3"], R=["R5"])
    assert rule_of(p, "Y", "J: Y3+5") == "C9"
    assert rule_of(p, "Y", "5: Y3<>R5") == "C9"
    assert rule_of(p, "Y", "J: in") == "C9"


# --- S3 and W1 ---------------------------------------------------------------


def test_s3_moves_only_own_pawns():
    p = P(Y=["Y3"], B=["B3"], R=["R3"])
    assert rule_of(p, "Y", "5: B3+5") == "S3"
    assert rule_of(p, "Y", "5: R3+5") == "S3"
    assert rule_of(p, "Y", "5: Y9+5") == "S3"
    assert legal(p, "Y", "5") == ["5: Y3+5"]


def test_s3_finished_player_moves_partner_pawns():
    p = P(Y=["YM1", "YM2", "YM3", "YM4"], B=["B3"], R=["R3"])
    assert legal(p, "Y", "5") == ["5: B3+5"]
    assert rule_of(p, "Y", "5: R3+5") == "S3"
    assert legal(p, "Y", "7")[-1] == "7: B3+7"


def test_w1_nothing_can_be_played_in_a_won_position():
    p = P(Y=["YM1", "YM2", "YM3", "YM4"], B=["BM1", "BM2", "BM3", "BM4"], R=["R3"])
    assert all(legal(p, s, c) == [] for s in "YRBG" for c in ["5", "7", "J", "8"])
    assert rule_of(p, "R", "5: R3+5") == "W1"


def test_destination_suffix_is_checked_when_applied():
    p = P(Y=["Y3"])
    assert after(p, "Y", "5: Y3+5>Y8")["Y"][3] == "Y8"
    with pytest.raises(NotationError) as e:
        apply_move(p, "Y", "5: Y3+5>Y9")
    assert e.value.rule == "N" and "Y8" in e.value.message_en


def test_f4_finished_player_plays_for_partner_and_team_wins_with_eight_locked():
    p = P(Y=["YM1", "YM2", "YM3", "G14"], B=["BM1", "BM2", "BM3", "R14"])
    after_y = apply_move(p, "Y", "1: G14+1").position
    assert after_y.is_finished("Y") and after_y.winner() is None
    assert legal(after_y, "Y", "1") == ["1: R14+1", "1: R14+14"]  # Y now moves B's pawns
    done = apply_move(after_y, "Y", "1: R14+1").position
    assert done.winner() == "YB"
