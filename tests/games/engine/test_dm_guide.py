"""The DM guide's worked examples and FAQ answers (seeds/000, 4th ed. 2023).

Each test names its source in the guide and the RULES.md ids it checks.
"""

import pytest

from games.engine import IllegalMoveError, apply_move

from .helpers import P, after, events, legal


def rule_of(position, seat, move):
    with pytest.raises(IllegalMoveError) as e:
        apply_move(position, seat, move)
    return e.value.rule


def test_eksempel_1_f5_f6_two_forward_three_back():
    """DM "Eksempel 1": red plays 5; pawn 1 (RM4) cannot lock on RM2 with a 5, so it
    goes two forward and three back to the yellow field with pawn 2 (F5, F6, C6)."""
    p = P(R=["RM1", "RM4", "Y14"])
    assert legal(p, "R", "5") == ["5: RM4+5"]
    assert after(p, "R", "5: RM4+5")["R"] == ["Y14", "Y14", "RH", "RM1"]
    assert rule_of(p, "R", "5: Y14+5") == "F1"  # pawn 2 cannot be moved


def test_eksempel_2_f5_no_circle_to_turn_on():
    """DM "Eksempel 2": red plays 3; pawn 2 on the track cannot move (pawn 1 in the
    finish blocks, no circle to turn on); pawn 1 goes one forward, two back to 14 (F5)."""
    p = P(R=["RM1", "RM2", "RM4", "Y12"])
    assert legal(p, "R", "3") == ["3: RM4+3"]
    assert after(p, "R", "3: RM4+3")["R"] == ["Y12", "Y14", "RM1", "RM2"]
    assert rule_of(p, "R", "3: Y12+3") == "F1"


def test_eksempel_3_f1_pawn_on_track_cannot_enter():
    """DM "Eksempel 3": red plays 5; pawn 1 on the yellow field cannot enter the
    finish (pawn 2 blocks, no free circle to turn on); pawn 2 goes two forward, three
    back and ends on pawn 1's field (F1, F5)."""
    p = P(R=["Y14", "RM4", "RM1"])
    assert rule_of(p, "R", "5: Y14+5") == "F1"
    assert legal(p, "R", "5") == ["5: RM4+5"]
    assert events(p, "R", "5: RM4+5") == []
    assert after(p, "R", "5: RM4+5")["R"][:2] == ["Y14", "Y14"]


def test_eksempel_4_t6_f7_goal_circle_pawn_always_protected():
    """DM "Eksempel 4": a pawn on a goal circle is always protected; opponents can
    never move it, even unlocked (T6, F7, C9)."""
    p = P(R=["RM3"], Y=["Y5"], G=["G2"])
    assert rule_of(p, "Y", "J: Y5<>RM3") == "F7"
    assert legal(p, "Y", "J") == ["J: Y5<>G2"]


class TestFlereEksemplerVedSlutfeltet:
    """DM "Flere eksempler på spil i og ved slutfeltet": red holds only a 5;
    red pawns on RM1 (locked), RM4 and field 13."""

    p = P(R=["RM1", "RM4", "Y13"])

    def test_pawn_on_13_cannot_jump_or_turn_f1_f5(self):
        assert rule_of(self.p, "R", "5: Y13+5") == "F1"

    def test_m4_pawn_cannot_stop_on_m2_must_use_all_five_c6_f5(self):
        assert rule_of(self.p, "R", "5: RM4+2") == "C2"
        assert legal(self.p, "R", "5") == ["5: RM4+5"]
        assert after(self.p, "R", "5: RM4+5")["R"] == ["Y13", "Y14", "RH", "RM1"]

    def test_locked_pawn_never_comes_back_f3(self):
        assert rule_of(self.p, "R", "5: RM1+5") == "F3"

    def test_with_a_three_the_m4_pawn_cannot_move_f6(self):
        assert legal(self.p, "R", "3") == []
        assert rule_of(self.p, "R", "3: RM4+3") == "F6"


def test_specialkort_i_slutfeltet_f7():
    """DM "Specialkort i slutfeltet?": neither -4 nor the swap card on pawns in goal
    circles (F7)."""
    p = P(R=["RM2", "RM3", "R4"], Y=["Y4"])
    assert rule_of(p, "R", "4: RM3-4") == "F7"
    assert rule_of(p, "R", "J: RM2<>R4") == "F7"
    assert legal(p, "R", "4") == ["4: R4-4"]


def test_spaerring_i_slutfeltet_f1_f5_f2():
    """DM "Spærring i slutfeltet?": red holds a 5; the pawn on field 10 is blocked by the
    pawn on the outermost circle; only the pawn on the second outermost circle can move,
    ending locked on the second innermost (F1, F5, F2)."""
    p = P(R=["Y10", "RM4", "RM3", "RM1"])
    assert legal(p, "R", "5") == ["5: RM3+5"]
    assert events(p, "R", "5: RM3+5") == [("lock", "R", "RM2")]
    assert rule_of(p, "R", "5: Y10+5") == "F1"
    assert rule_of(p, "R", "5: RM4+5") == "F5"


def test_t_eren_i_slutfeltet_c7_f5_f6():
    """DM "T'eren i slutfeltet": red plays 7: RM3 five steps to RM2, RM4 one to RM3,
    field 14 one to RM4 - all red pawns locked (C7, F5, F6)."""
    p = P(R=["RM1", "RM3", "RM4", "Y14"])
    assert "7: RM3+5 RM4+1 Y14+1" in legal(p, "R", "7")
    res = apply_move(p, "R", "7: RM3+5 RM4+1 Y14+1")
    assert res.position.locked("R") == ["RM1", "RM2", "RM3", "RM4"]
    assert [e.at for e in res.events] == ["RM2", "RM3", "RM4"]


def test_spaerring_med_flere_brikker_t3_t2_c4():
    """DM "Spærring med flere brikker?": red plays -4 from its start field past four
    yellow pawns on field 14 to 11; a pawn landing on 14 from the other side is hit home
    (T3, T2, C4)."""
    p = P(R=["RS"], Y=["Y14", "Y14", "Y14", "Y14"], B=["Y12"])
    assert after(p, "R", "4: RS-4")["R"][0] == "Y11"
    assert events(p, "B", "2: Y12+2") == [("hit", "B", "Y14")]


def test_spaerring_med_to_brikker_t3_t2():
    """DM "Spærring med to brikker?": two yellow pawns on 13 block neither blue on 9 nor
    yellow on 11; blue landing on 13 is hit home (T3, T2)."""
    p = P(Y=["G13", "G13", "G11"], B=["G9", "B1"])
    assert "5: G9+5" in legal(p, "B", "5")
    assert "3: G11+3" in legal(p, "Y", "3")
    assert events(p, "B", "7: G9+4 B1+3") == [("hit", "B", "G13")]


def test_kan_brikkerne_byttes_c9_t6():
    """DM "Kan brikkerne byttes?": blue on 9 cannot swap with a pawn of the yellow pair on
    13, can swap with yellow on 11; the locked red pawn can never be touched (C9, T6)."""
    p = P(Y=["G13", "G13", "G11"], B=["G9"], R=["RM1"])
    assert legal(p, "B", "J") == ["J: G9<>G11"]
    assert rule_of(p, "B", "J: G9<>G13") == "C9"


def test_maa_man_bytte_eller_hvad_c9_t5_f3():
    """DM "Må man bytte eller hvad?": red cannot swap its locked pawn, nor the pawn on its
    start field with one in its start circle; with nothing else the J cannot be played
    (C9, T5, F3, D4)."""
    p = P(R=["RM1", "RS"])
    assert rule_of(p, "R", "J: RS<>RM1") in ("C9", "F7")
    assert rule_of(p, "R", "J: RH<>RS") == "C9"
    assert legal(p, "R", "J") == []


# --- "Ofte stillede spørgsmål" ---------------------------------------------------


def test_faq_start_fields_never_count_b2():
    """FAQ "Tæller startfelterne med…? Nej, aldrig!" (B2)."""
    assert after(P(Y=["Y12"]), "Y", "3: Y12+3")["Y"][3] == "R1"


def test_faq_own_pawn_not_hit_partner_hit_by_pair_t2():
    """FAQ "Bliver man slået hjem, hvis man lander på … ens egen brik? Nej"; opponents' or
    the partner's pawns landing on your two pawns are hit home (T2)."""
    p = P(Y=["Y3", "Y8", "Y8"], B=["Y5"])
    assert events(p, "Y", "5: Y3+5") == []
    assert events(p, "B", "3: Y5+3") == [("hit", "B", "Y8")]


def test_faq_pairs_block_only_on_own_start_field_t3_t4():
    """FAQ "Spærrer man … med to brikker i samme felt? Nej! Kun i ens eget startfelt (én
    brik er også nok)" (T3, T4)."""
    assert legal(P(Y=["Y10"], R=["Y12", "Y12"]), "Y", "5") == ["5: Y10+5"]
    assert legal(P(Y=["Y10"], R=["RS"]), "Y", "5") == []


def test_faq_no_backward_detour_at_a_blocked_start_field_t4():
    """FAQ "Rykker man baglæns … hvis … en modstanders brik spærrer i et startfelt? Nej"
    (T4, C6)."""
    p = P(Y=["Y13"], R=["RS"])
    assert legal(p, "Y", "5") == []
    assert rule_of(p, "Y", "5: Y13+5") == "T4"


def test_faq_no_jumping_own_pawns_in_goal_circles_f1_f5():
    """FAQ "Kan man hoppe over sine egne brikker inde i målcirklerne? Nej" – the rest of
    the steps go back, given a free circle to turn on (F1, F5)."""
    p = P(Y=["G13", "YM2"])
    # G14, YM4, YM3, (YM2 occupied) turn on YM3 -> YM4, G14
    assert after(p, "Y", "5: G13+5")["Y"] == ["YH", "YH", "YM2", "G14"]


def test_faq_swap_never_on_goal_circle_even_unlocked_f7():
    """FAQ "Kan man bruge et byttekort til at bytte en brik i en målcirkel? Nej, aldrig.
    Heller ikke selv om brikken ikke er låst fast" (F7)."""
    p = P(Y=["YM3", "Y2"], R=["R3"])
    assert rule_of(p, "Y", "J: Y2<>YM3") == "F7"


def test_faq_swap_without_own_pawns_in_play_c9():
    """FAQ "Kan man bruge et byttekort, selv om man ikke har en eneste brik i spil? Ja" (C9)."""
    assert legal(P(R=["R3"], B=["B5"]), "Y", "J") == ["J: R3<>B5"]


def test_faq_swap_two_own_pawns_c9():
    """FAQ "Kan man bytte to af sine egne brikker…? Ja" (C9)."""
    p = P(Y=["Y2", "Y9"])
    assert legal(p, "Y", "J") == ["J: Y2<>Y9"]
    assert after(p, "Y", "J: Y2<>Y9") == p.to_json()


def test_faq_start_field_pawn_cannot_be_swapped_t5_c9():
    """FAQ "Er en brik i ens startfelt egentlig fredet? … kan dog ikke flytte en brik på
    startfeltet i forbindelse med brug af byttekort" (T5, C9)."""
    assert rule_of(P(Y=["YS"], R=["R3"]), "R", "J: YS<>R3") == "C9"


def test_faq_seven_over_any_number_of_pawns_c7():
    """FAQ "Hvor mange brikker må man fordele sine træk over…? Så mange man vil" (C7)."""
    p = P(Y=["Y1", "Y3", "Y5", "Y9"])
    assert "7: Y1+1 Y3+1 Y5+2 Y9+3" in legal(p, "Y", "7")


def test_faq_minus_four_not_in_goal_circle_f7():
    """FAQ "Kan man spille et -4 kort … i en af sine målcirkler? Nej" (F7)."""
    assert rule_of(P(Y=["YM4"]), "Y", "4: YM4-4") == "F7"


def test_faq_seven_never_moves_a_pawn_twice_c7():
    """FAQ "… flytte den første brik, derefter den anden og slutteligt den første igen? Nej"."""
    p = P(Y=["Y1", "Y10"])
    assert rule_of(p, "Y", "7: Y1+2 Y10+2 Y3+3") == "C7"


def test_faq_hit_yourself_on_purpose_t2():
    """FAQ "Må man slå sig selv hjem med vilje…? Ja" (T2)."""
    p = P(Y=["Y3", "Y6"], R=["Y8", "Y8"])
    assert "5: Y3+5" in legal(p, "Y", "5")
    assert after(p, "Y", "5: Y3+5")["Y"] == ["YH", "YH", "YH", "Y6"]


def test_faq_last_pawn_seven_rest_only_on_partner_c7():
    """FAQ "Hvis man kun mangler … en enkelt af sine brikker … kan man spille en 7'er,
    selv om man ikke bruger alle trækkene? Ja, men KUN hvis man kan bruge resten … på sin
    partners brikker" (C7, S3)."""
    with_partner = P(Y=["YM1", "YM2", "YM3", "G14"], B=["B2"])
    assert "7: G14+1 B2+6" in legal(with_partner, "Y", "7")
    alone = P(Y=["YM1", "YM2", "YM3", "G14"])
    assert rule_of(alone, "Y", "7: G14+1") == "C7"


def test_faq_locking_inside_out_f2():
    """FAQ "… låst fast i en målcirkel": the first pawn locks on the innermost circle, the
    next on the second innermost, and so on (F2)."""
    p = P(Y=["G14", "G13"])
    assert events(p, "Y", "5: G13+5") == [("lock", "Y", "YM1")]
    q = P(Y=["G14", "YM1"])
    assert events(q, "Y", "3: G14+3") == [("lock", "Y", "YM2")]


def test_guide_1_startcirklen_only_heart_cards_enter_c8():
    """DM §1 "Startcirklen": a pawn leaves the start circle only with a heart card (C5, C8)."""
    assert {c: legal(P(), "Y", c) for c in ("8", "11", "13")} == {
        "8": ["8: in"],
        "11": ["11: in"],
        "13": ["13: in"],
    }
    assert all(legal(P(), "Y", c) == [] for c in ("1", "2", "4", "5", "7", "12"))


def test_guide_2_startfeltet_red_blocks_yellow_b2_t4():
    """DM §2: red on its start field blocks yellow, which can only move one field (to
    14); red on 3 may play -4 past its own start field to 13; blue on 2 may not (T4)."""
    p = P(Y=["Y13"], R=["RS", "R3"], B=["R2"])
    assert legal(p, "Y", "1") == ["1: Y13+1"]
    assert legal(p, "Y", "2") == []
    assert after(p, "R", "4: R3-4")["R"][0] == "Y13"
    assert rule_of(p, "B", "4: R2-4") == "T4"


def test_guide_3_green_three_from_9_to_12_c2():
    """DM §3: green plays a 3 and moves from field 9 to 12 (C2)."""
    assert after(P(G=["G9"]), "G", "3: G9+3")["G"] == ["GH", "GH", "GH", "G12"]


def test_guide_4_exact_value_to_lock_or_move_back_f2_f5_f6():
    """DM §4: a pawn locks only on an exact count; otherwise it moves the remaining steps
    backward; a pawn moved inside the finish must lock or reach the numbered fields."""
    p = P(R=["Y12", "RM1"])
    assert events(p, "R", "5: Y12+5") == [("lock", "R", "RM2")]
    assert "RM3" in after(p, "R", "6: Y12+6")["R"]  # from the track: may stop unlocked
    q = P(R=["RM3", "RM1"])
    assert legal(q, "R", "1") == ["1: RM3+1", "1: RM3+14"]  # 14: in, turn, out to Y4
    assert after(q, "R", "1: RM3+14")["R"][0] == "Y4"
    assert legal(q, "R", "2") == []  # RM2, turn, RM3: unlocked in the finish (F6)
