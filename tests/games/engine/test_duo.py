"""Ruleset ``duo``: Partners DUO (docs/rulesets/duo.md), one test per rule id.

The seed is Icelandic (002); each test quotes the sentence its rule reads.
"""

from __future__ import annotations

import pytest

from games.engine import IllegalMoveError, PositionError, duo
from games.engine.ruleset import DUO

AREAS = ("YK", "RK", "YO", "RO")


def DP(**areas: list[str]) -> duo.DuoPosition:
    """A DUO position; each area's unlisted pawns are at home."""
    data = {a: list(areas.get(a, [])) + [a + "H"] * (3 - len(areas.get(a, []))) for a in AREAS}
    return duo.DuoPosition.from_json(data, DUO.board_fields)


def legal(p, seat, card):
    return [str(m) for m in duo.legal_moves(p, seat, card)]


def after(p, seat, move):
    return duo.apply_move(p, seat, move).position.to_json()


def refused(p, seat, move):
    with pytest.raises(IllegalMoveError) as e:
        duo.apply_move(p, seat, move)
    assert e.value.message_en and e.value.message_da
    return e.value.rule


# S2: "Hvor leikmaður fær sex peð – þrjú með hnúð og þrjú með holu"
def test_s2_six_pawns_per_player_three_per_area_at_home():
    p = duo.DuoPosition.initial(DUO.board_fields)
    assert p.to_json() == {a: [a + "H"] * 3 for a in AREAS}


# B3: a pawn stands only on its own area's home, start and goal; T1, F1
@pytest.mark.parametrize(
    ("areas", "rule"),
    [
        ({"YK": ["RKS"]}, "B3"),
        ({"YK": ["YK3"], "RK": ["YK3"]}, "T1"),
        ({"YK": ["YKM2", "YKM2"]}, "F1"),
    ],
)
def test_b3_invalid_positions(areas, rule):
    with pytest.raises(PositionError) as e:
        DP(**areas)
    assert e.value.rule == rule


# C3: "verður leikmaður að hafa spil merkt með byrjunartákninu"
def test_c3_start_cards_bring_a_pawn_of_either_area_into_play():
    p = duo.DuoPosition.initial(DUO.board_fields)
    assert legal(p, "Y", "1") == ["1: in YK", "1: in YO"]
    assert legal(p, "R", "8") == ["8: in RK", "8: in RO"]
    assert legal(p, "Y", "3") == []
    assert refused(p, "Y", "3: in YK") == "C3"


# T2: one opponent pawn or one own pawn of the other area is hit; two: the mover goes home
def test_t2_hitting_includes_own_other_area():
    assert after(DP(YK=["YK3"], RK=["YK8"]), "Y", "5: YK3+5")["RK"] == ["RKH"] * 3
    assert after(DP(YK=["YK3"], YO=["YK8"]), "Y", "5: YK3+5")["YO"] == ["YOH"] * 3
    res = after(DP(YK=["YK3"], RK=["YK8", "YK8"]), "Y", "5: YK3+5")
    assert res["YK"] == ["YKH"] * 3 and res["RK"] == ["YK8", "YK8", "RKH"]


# T3: "getur hinn leikmaðurinn ekki fært peðið sitt framhjá – leikmaður getur heldur
# ekki flutt eigið peð frá hinu heimasvæðinu – nema að eiga spilið [5]"
def test_t3_start_field_blocks_the_opponent_and_the_other_own_area():
    p = DP(YK=["YK12"], RK=["RKS"])
    assert legal(p, "Y", "3") == []
    assert refused(p, "Y", "3: YK12+3") == "T3"
    # the owner's other area is blocked too: YK on RK12 would pass YOS
    assert legal(DP(YK=["RK12"], YO=["YOS"]), "Y", "3") == ["3: YOS+3"]
    # a start field behind the pawn does not block it
    assert legal(DP(RO=["YK12"], YK=["YKS"]), "R", "7") == ["7: YK12+7"]


# C7: the 5 "gera leikmanni kleift að stökkva yfir lokaðan byrjunarreit"
def test_c7_five_jumps_a_blocked_start_field():
    p = DP(YK=["YK12"], RK=["RKS"])
    assert legal(p, "Y", "5") == ["5: YK12+5"]
    assert "RK3" in after(p, "Y", "5: YK12+5")["YK"]


# C4: "tvo reiti til baka, þ.e.a.s. rangsælis, eða tvo reiti áfram"
def test_c4_two_back_or_two_forward():
    assert legal(DP(YK=["YK3"]), "Y", "2") == ["2: YK3+2", "2: YK3-2"]
    assert "RO13" in after(DP(YK=["YKS"]), "Y", "2: YKS-2")["YK"]
    assert "RO13" in after(DP(YK=["YK1"]), "Y", "2: YK1-2")["YK"]


# F2: "er það fært tilbaka um fjölda reita sem það átti eftir … BARA … á marksvæðinu"
def test_f2_turning_inside_the_goal_area():
    p = DP(YK=["RO13"])
    assert "YKM2" in after(p, "Y", "5: RO13+5")["YK"]  # RO14 M3 M2 M1, turn, M2
    assert "YKM2" in after(p, "Y", "3: RO13+3")["YK"]
    assert "YKM1" in after(p, "Y", "4: RO13+4")["YK"]


# F3 Decision: turned steps never leave the goal area
def test_f3_turning_never_leaves_the_goal_area():
    p = DP(YK=["RO13"])
    assert "7: RO13+7" not in legal(p, "Y", "7")
    assert refused(p, "Y", "7: RO13+7") == "F2"


# F1: "Þegar peð er komið í mark er það óhult á læstu svæði og ekki hægt að færa það lengur"
def test_f1_locked_pawns_never_move():
    p = DP(YK=["YKM1", "YKM3"])
    assert refused(p, "Y", "1: YKM1+1") == "F1"
    assert legal(p, "Y", "1") == ["1: in YK", "1: in YO", "1: YKM3+1"]


# F4: "má ekki færa það aftur" — never backward in the goal area
def test_f4_no_backward_in_the_goal_area():
    p = DP(YK=["YKM3"])
    assert legal(p, "Y", "2") == ["2: YKM3+2"]
    assert refused(p, "Y", "2: YKM3-2") == "F4"


# C5: swap any two single track pawns; "peð sem eru annað hvort í marki eða á
# heimasvæðinu, eða ef peð frá sama heimasvæði eru á sama reit" are safe
def test_c5_swap():
    p = DP(YK=["YK3", "YKM2"], RK=["RK5", "RK5"], YO=["YOS"], RO=["YO7", "RK9"])
    assert [m for m in legal(p, "R", "9") if "<>" in m] == [
        "9: YK3<>RK9",
        "9: YK3<>YO7",
        "9: RK9<>YO7",
    ]
    assert refused(p, "R", "9: YK3<>RK5") == "C5"
    assert refused(p, "R", "9: YK3<>YOS") == "C5"


# C6: "má skipta á milli peða sem eru í umferð frá sama heimasvæði, en það VERÐUR að
# nota alla fjóra reitina … aðeins má færa hvert peð EINU sinni"
def test_c6_split_four_within_one_area():
    p = DP(YK=["YK3", "YK5"], YO=["YO2"])
    moves = legal(p, "Y", "4")
    assert "4: YK3+1 YK5+3" in moves and "4: YO2+4" in moves
    assert not any("YK" in m and "YO" in m for m in moves)
    assert refused(p, "Y", "4: YK3+1 YO2+3") == "C6"
    assert refused(p, "Y", "4: YK3+1 YK5+2") == "C6"


# C6: the rest goes to the other area only when the first area's last pawn locks
def test_c6_rest_to_the_other_area_after_locking():
    p = DP(YK=["YKM1", "YKM2", "RO14"], YO=["YO2"])
    moves = legal(p, "Y", "4")
    assert "4: RO14+1 YO2+3" in moves  # RO14+1 locks YK's last pawn on YKM3
    assert "YO5" in after(p, "Y", "4: RO14+1 YO2+3")["YO"]
    assert refused(DP(YK=["YK3", "RO14"], YO=["YO2"]), "Y", "4: RO14+1 YO2+3") == "C6"


# C6 in a record: a split 4 refused after its parts were walked (here one hits)
# leaves the game as it was, so the next entry plays on the unchanged board
def test_c6_refused_split_in_a_record_changes_nothing():
    start = DP(YK=["YK3", "YK5"], YO=["YO2"], RK=["YK4"])
    rec = {"ruleset": "duo", "first_dealer": "R", "start": start.to_json()}
    res = duo.replay(dict(rec, moves=["Y 4: YK3+1 YK5+2"]), DUO)
    assert res.first_error["rule"] == "C6"
    assert res.position == start
    game = duo.DuoGame(DUO, 1, start)
    with pytest.raises(IllegalMoveError):
        game.entry("Y 4: YK3+1 YK5+2")
    assert game.entry("Y 4: YK3+1 YK5+3") == [("hit", 1, start.locs[3])]
    assert game.snapshot().position.to_json()["YK"] == ["YKH", "YK4", "YK8"]
    assert game.snapshot().position.to_json()["RK"] == ["RKH", "RKH", "RKH"]


# W1: "Leikmaðurinn sem fyrstu kemur öllum sex peðunum sínum á hringi á marksvæðinu sigrar"
def test_w1_six_pawns_locked_wins():
    p = DP(YK=["YKM1", "YKM2", "YKM3"], YO=["YOM1", "YOM2", "RK14"])
    win = duo.apply_move(p, "Y", "1: RK14+1").position
    assert win.winner() == "Y"
    assert legal(win, "R", "3") == []


# D2, D3: the non-dealer opens; a discard with a playable card is refused
def test_d2_d3_turns_and_discards_in_a_record():
    rec = {
        "ruleset": "duo",
        "first_dealer": "Y",
        "moves": ["R 8: in RK", "Y X: 3 7 10 12", "R 5: RKS+5"],
    }
    res = duo.replay(rec, DUO)
    assert res.ok and res.moves_checked == 3
    bad = duo.replay(dict(rec, moves=["Y 8: in YK"]), DUO)
    assert bad.first_error["rule"] == "D2"
    bad = duo.replay(dict(rec, moves=["R X: 1 3 7 10"]), DUO)
    assert bad.first_error["rule"] == "D3"


# D3: apply checks a discard against a position (NOTATION.md apply)
def test_d3_discard_against_a_position():
    p = DP(YK=["YKM1"])
    assert duo.apply_move(p, "Y", "X: 3").position == p
    assert refused(p, "Y", "X: 3 1") == "D3"


# B2: the board size is a setting the engine honours
def test_b2_board_size_is_a_setting():
    import dataclasses

    small = dataclasses.replace(DUO, board_fields=10)
    p = duo.DuoPosition.from_json(
        {"YK": ["YK9", "YKH", "YKH"], "RK": ["RKH"] * 3, "YO": ["YOH"] * 3, "RO": ["ROH"] * 3},
        small.board_fields,
    )
    assert [str(m) for m in duo.legal_moves(p, "Y", "3")] == ["3: YK9+3"]
    assert "RK2" in duo.apply_move(p, "Y", "3: YK9+3").position.to_json()["YK"]
    rec = duo.selfplay_game(3, small)
    assert duo.replay(rec, small).ok


def _sound(position: duo.DuoPosition) -> bool:
    duo.DuoPosition.from_json(position.to_json(), DUO.board_fields)  # re-validated (B3, T1, F1)
    return True


def test_selfplay_500_games_replay_with_invariants():
    for seed in range(500):
        rec = duo.selfplay_game(seed, DUO)
        game = duo.DuoGame(DUO, duo.PLAYERS.index(rec["first_dealer"]), None)
        locked = [0, 0, 0, 0]
        for text in rec["moves"]:
            game.entry(text)
            pos = duo.DuoPosition(game.board.locs, DUO.board_fields)
            assert _sound(pos)
            for a in range(4):
                n = game.board.locked(a)
                assert n >= locked[a], (seed, text)  # F1: locked pawns never move
                locked[a] = n
        res = duo.replay(rec, DUO)
        assert res.ok and res.winner == game.winner is not None, seed
