"""DUO refusals cite the card's own rule (docs/rulesets/duo.md §5), through the public API,
a game record and the JSON command line, as dm2023 does (RULES.md §5, NOTATION.md)."""

from __future__ import annotations

import io
import json

import pytest

from games.engine import (
    DM2023,
    DUO,
    IllegalMoveError,
    canonical_move,
    position_from_json,
    position_play,
    replay,
)
from games.engine.cli import main

AREAS = ("YK", "RK", "YO", "RO")
# Y has a pawn on YK3 and two at home; R has a pawn on RK5 (its home area RKH holds two).
POSITION = {
    "YK": ["YK3", "YKH", "YKH"],
    "RK": ["RK5", "RKH", "RKH"],
    "YO": ["YOH"] * 3,
    "RO": ["ROH"] * 3,
}

# Every DUO card whose step count can be written wrong, with wrong counts (one pawn, other
# steps; a backward step; two pawns) and the rule that says what the card does.
WRONG_COUNTS = [
    ("1", ["1: YK3+2", "1: YK3-1", "1: YK3+14"], "C3"),
    ("2", ["2: YK3+3", "2: YK3-4", "2: YK3+1"], "C4"),
    ("3", ["3: YK3+4", "3: YK3-3", "3: YK3+1 YK3+2"], "C2"),
    ("4", ["4: YK3+5", "4: YK3-4", "4: YK3+3"], "C6"),
    ("5", ["5: YK3+4", "5: YK3-5", "5: YK3+2 YK3+3"], "C7"),
    ("6", ["6: YK3+5", "6: YK3-6"], "C3"),
    ("7", ["7: YK3+5", "7: YK3+3 YK3+4", "7: YK3-7"], "C2"),
    ("8", ["8: YK3+7", "8: YK3-8"], "C3"),
    ("9", ["9: YK3+8", "9: YK3-9", "9: YK3+4 YK3+5"], "C5"),
    ("10", ["10: YK3+11", "10: YK3-10"], "C2"),
    ("12", ["12: YK3+11", "12: YK3-12"], "C2"),
]
CASES = [(card, move, rule) for card, moves, rule in WRONG_COUNTS for move in moves]


def ask(cmd: str, request: dict) -> tuple[int, dict]:
    out = io.StringIO()
    code = main([cmd], io.StringIO(json.dumps(request)), out)
    return code, json.loads(out.getvalue())


def refusal(seat: str, move: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as e:
        position_play(position_from_json(POSITION, DUO), seat, move, DUO)
    assert e.value.message_en and e.value.message_da
    return e.value


def test_the_cases_cover_every_duo_card():
    assert sorted(card for card, _, _ in WRONG_COUNTS) == sorted(DUO.deck_cards())
    assert all(rule == DUO.card_rule(card) for card, _, rule in WRONG_COUNTS)


@pytest.mark.parametrize(("card", "move", "rule"), CASES)
def test_a_wrong_step_count_cites_the_cards_own_rule(card, move, rule):
    err = refusal("Y", move)
    assert err.rule == rule
    assert f"Card {card} " in err.message_en or card == "4"
    # The same refusal, word for word, from the command line: an illegal move, exit 0.
    code, ans = ask("apply", {"ruleset": "duo", "position": POSITION, "seat": "Y", "move": move})
    assert code == 0
    assert ans == {"ok": False, "error": err.to_json()}


@pytest.mark.parametrize(("card", "move", "rule"), CASES)
def test_a_wrong_step_count_in_a_record_is_refused_with_the_cards_rule(card, move, rule):
    # Y deals first, so R opens (D2); R's pawn stands on RK5.
    red = move.replace("YK3", "RK5")
    record = {"ruleset": "duo", "first_dealer": "Y", "start": POSITION, "moves": [f"R {red}"]}
    result = replay(record)
    assert result.first_error is not None
    assert (result.first_error.index, result.first_error.rule) == (0, rule)
    code, ans = ask("replay", record)
    assert code == 0 and ans["first_error"]["rule"] == rule and ans["moves_checked"] == 0


def test_the_right_step_counts_are_still_played():
    for move in ("1: YK3+1", "2: YK3-2", "2: YK3+2", "3: YK3+3", "5: YK3+5", "9: YK3+9"):
        position_play(position_from_json(POSITION, DUO), "Y", move, DUO)


# C5: "EKKI má þó nota spilið til að skipta á peði sem er ‚friðað‘, þ.e.a.s. peð sem eru annað
# hvort í marki eða á heimasvæðinu" — a home-area pawn is named, read, and refused by C5.
@pytest.mark.parametrize(
    "move", ["9: YKH<>RK5", "9: RK5<>YKH", "9: YK3<>RKH", "9: YKS<>RK5", "9: YKM1<>RK5"]
)
def test_a_nine_swapping_a_protected_place_is_an_illegal_move_citing_c5(move):
    assert refusal("Y", move).rule == "C5"
    code, ans = ask("apply", {"ruleset": "duo", "position": POSITION, "seat": "Y", "move": move})
    assert code == 0 and ans["ok"] is False and ans["error"]["rule"] == "C5"
    record = {"ruleset": "duo", "first_dealer": "Y", "start": POSITION, "moves": [f"R {move}"]}
    code, ans = ask("replay", record)
    assert code == 0 and ans["first_error"]["rule"] == "C5"


def test_a_home_area_swap_reads_in_canonical_order_and_names_the_safe_pawn():
    assert canonical_move("9: RK5<>YKH", DUO) == "9: YKH<>RK5"
    err = refusal("Y", "9: YKH<>RK5")
    assert "YKH" in err.message_en and "YKH" in err.message_da
    # An empty place has no pawn to swap: said so, by the same rule.
    err = refusal("Y", "9: YOS<>RK5")
    assert (err.rule, err.message_en) == ("C5", "There is no pawn on YOS to swap.")


def test_duo_answers_a_home_swap_as_dm2023_does():
    dm = {"Y": ["Y3", "YH", "YH", "YH"], "R": ["R10", "RH", "RH", "RH"]}
    dm |= {s: [s + "H"] * 4 for s in "BG"}
    code, ans = ask(
        "apply", {"ruleset": "dm2023", "position": dm, "seat": "Y", "move": "J: YH<>R10"}
    )
    assert code == 0 and ans["ok"] is False and ans["error"]["rule"] == DM2023.card_rule("J")
    move = "9: YKH<>RK5"
    code, ans = ask("apply", {"ruleset": "duo", "position": POSITION, "seat": "Y", "move": move})
    assert code == 0 and ans["ok"] is False and ans["error"]["rule"] == DUO.card_rule("9")


def test_unreadable_duo_moves_stay_unreadable():
    for move in ("9: YKX<>RK5", "9: YK15<>RK5", "9: YKM4<>RK5", "9: YK3<>", "13: YK3+13"):
        code, ans = ask(
            "apply", {"ruleset": "duo", "position": POSITION, "seat": "Y", "move": move}
        )
        assert code == 2 and ans["error"]["rule"] == "N", move
