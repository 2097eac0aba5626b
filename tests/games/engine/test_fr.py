"""Ruleset ``fr``: the French rulebook's differences from dm2023 (docs/rulesets/fr.md).

Each test names the rule id and quotes FR (seed 004).
"""

from __future__ import annotations

import pytest

from games.engine import (
    IllegalMoveError,
    adjudicate,
    apply_move,
    legal_moves,
    replay,
)
from games.engine.ruleset import DM2023, FR

from .helpers import P
from .invariants import problem


def legal(p, seat, card, ruleset=FR):
    return [str(m) for m in legal_moves(p, seat, card, ruleset)]


def dest(p, seat, move):
    return apply_move(p, seat, move, FR).position.pawns(seat)


# F6 does not apply: "votre pion faisant marche arrière même s'il doit se trouver à nouveau
# sur le plateau de jeu. Ceci peut se reproduire à plusieurs reprises"
def test_f6_does_not_apply_fr_example_with_a_5():
    p = P(Y=["YM2", "YM4"])
    assert legal(p, "Y", "5") == ["5: YM2+5", "5: YM4+5"]
    assert dest(p, "Y", "5: YM4+5") == ["YH", "YH", "YM2", "G12"]
    assert dest(p, "Y", "5: YM2+5") == ["YH", "YH", "YM1", "YM4"]


# F8 Decision: back on the circle it started from is legal ("YM4+2 -> YM3, turn, YM4")
def test_f8_free_movement_in_the_zone_and_dm2023_forbids_it():
    p = P(Y=["YM2", "YM4"])
    assert legal(p, "Y", "2") == ["2: YM2+2", "2: YM4+2"]
    assert dest(p, "Y", "2: YM4+2") == ["YH", "YH", "YM2", "YM4"]
    assert legal(p, "Y", "2", DM2023) == []
    with pytest.raises(IllegalMoveError) as e:
        apply_move(p, "Y", "2: YM4+2", DM2023)
    assert e.value.rule == "F6"


# F8: "a pawn on YM4 alone with a 3 locks on YM1, with a 2 stays unlocked on YM2,
# with a 5 ends unlocked on YM3"
def test_f8_pawn_alone_on_ym4():
    p = P(Y=["YM4"])
    assert dest(p, "Y", "3: YM4+3") == ["YH", "YH", "YH", "YM1"]
    assert dest(p, "Y", "2: YM4+2") == ["YH", "YH", "YH", "YM2"]
    assert dest(p, "Y", "5: YM4+5") == ["YH", "YH", "YH", "YM3"]


# F8, C7: "a 7 may be split YM4+2 G10+5 (both end in the zone, unlocked)"
def test_f8_seven_split_ends_in_the_zone():
    p = P(Y=["G10", "YM4"])
    assert "7: YM4+2 G10+5" in legal(p, "Y", "7")
    assert dest(p, "Y", "7: YM4+2 G10+5") == ["YH", "YH", "YM2", "YM4"]


# F5 kept: "A pawn on G10 with YM4 occupied still cannot enter"
def test_f5_kept_cannot_enter_past_an_occupied_ym4():
    p = P(Y=["G10", "YM4"])
    with pytest.raises(IllegalMoveError) as e:
        apply_move(p, "Y", "5: G10+5", FR)
    assert e.value.rule == "F1"


# F9: a pawn that left the zone backward is a track pawn and may enter again
def test_f9_leave_and_re_enter():
    p = P(Y=["YM2", "YM4"])
    out = apply_move(p, "Y", "5: YM4+5", FR).position
    assert "G12" in out.pawns("Y")
    assert "5: G12+5" in legal(out, "Y", "5")


# W3 unchanged (board and path are those of dm2023)
def test_w3_as_dm2023():
    p = P(Y=["YM1"], R=["R3"])
    assert adjudicate(p, FR)["winner"] == adjudicate(p, DM2023)["winner"]


def test_selfplay_games_replay_with_invariants_after_every_move():
    from games.engine.selfplay import play_game

    for seed in range(500):
        locked = [0, 0, 0, 0]
        found: list[str] = []

        def observe(locs, seat, hand, locked=locked, found=found):
            bad = problem(locs, locked)
            if bad:
                found.append(bad)

        record = play_game(seed, FR, observe=observe)
        res = replay(record)
        assert res.ok and res.winner is not None, (seed, res.first_error)
        assert found == [], (seed, found[:1])
