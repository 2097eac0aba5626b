"""A judge undoes a ruling with a judge entry of their own (``! UNDO n``, RULES.md J2)."""

from __future__ import annotations

import pytest

from games.engine import (
    EngineError,
    entry_marks,
    format_judge_entry,
    parse_judge_entry,
    replay,
    selfplay_game,
    void_check,
)


@pytest.fixture(scope="module")
def record() -> dict:
    return selfplay_game(7, first_dealer="Y")


def _with(record: dict, moves: list[str]) -> dict:
    return {**record, "moves": moves}


@pytest.mark.parametrize("text", ["! UNDO 12", "! UNDO 12 13"])
def test_undo_round_trips(text: str) -> None:
    assert format_judge_entry(parse_judge_entry(text)) == text


@pytest.mark.parametrize("text", ["! UNDO", "! UNDO 0", "! UNDO x"])
def test_unreadable_undo_is_refused(text: str) -> None:
    with pytest.raises(EngineError) as err:
        parse_judge_entry(text)
    assert err.value.rule == "N"


def test_undoing_a_void_brings_the_entry_back(record: dict) -> None:
    moves = record["moves"][:10]
    played = replay(_with(record, moves))
    undone = replay(_with(record, [*moves, "! VOID 10", "! UNDO 11"]))
    assert undone.ok, undone.first_error
    assert undone.position == played.position
    assert undone.state.to_move == played.state.to_move
    assert undone.state.hand_sizes == played.state.hand_sizes
    # Play goes on as if the void had never been made.
    after = replay(_with(record, [*moves, "! VOID 10", "! UNDO 11", record["moves"][10]]))
    assert after.ok and after.position == replay(_with(record, record["moves"][:11])).position


def test_undoing_a_void_and_its_position_correction_together(record: dict) -> None:
    moves = record["moves"][:10]
    affected = [a["entry"] for a in void_check(_with(record, moves), [5])]
    keep = " ".join(map(str, affected))
    wrong = "! SET Y=YH,YH,YH,YH R=RH,RH,RH,RH B=BH,BH,BH,BH G=GH,GH,GH,GH"
    result = replay(_with(record, [*moves, f"! VOID 5 KEEP {keep}", wrong, "! UNDO 11 12"]))
    assert result.ok, result.first_error
    assert result.position == replay(_with(record, moves)).position


def test_undoing_a_penalty_and_a_result(record: dict) -> None:
    moves = record["moves"][:8]
    plain = replay(_with(record, moves))
    penalty = replay(_with(record, [*moves, "! P1 R", "! UNDO 9"]))
    assert penalty.ok and penalty.state.penalised == ()
    result = replay(_with(record, [*moves, "! RESULT RG", "! UNDO 9"]))
    assert result.ok and result.winner is None
    assert result.state.to_move == plain.state.to_move


def test_only_an_earlier_judge_entry_that_still_counts_can_be_undone(record: dict) -> None:
    moves = record["moves"][:6]
    for tail, rule in (
        (["! UNDO 3"], "J2"),  # a played entry: void it instead
        (["! UNDO 9"], "J1"),  # not an earlier entry
        (["! WARN B", "! UNDO 7", "! UNDO 7"], "J2"),  # already undone
        (["! WARN B", "! UNDO 7", "! UNDO 8"], "J2"),  # an undo is not undone
    ):
        result = replay(_with(record, [*moves, *tail]))
        assert not result.ok, tail
        assert result.first_error.rule == rule, (tail, result.first_error)
        assert result.first_error.index == len(moves) + len(tail) - 1


def test_an_undo_that_makes_a_later_entry_illegal_is_refused_naming_it(record: dict) -> None:
    moves = record["moves"][:10]
    # After voiding 10 the same seat played again; with the void undone that
    # replayed entry is out of turn.
    log = [*moves, "! VOID 10", moves[9], "! UNDO 11"]
    refused = replay(_with(record, log))
    assert not refused.ok and refused.first_error.index == 12
    assert "12" in refused.first_error.message and "Void that entry first" in (
        refused.first_error.message
    )
    assert "12" in refused.first_error.message_da
    # Voiding it first makes the undo possible.
    fixed = replay(_with(record, [*moves, "! VOID 10", moves[9], "! VOID 12", "! UNDO 11"]))
    assert fixed.ok, fixed.first_error
    assert fixed.position == replay(_with(record, moves)).position


def test_an_undone_void_no_longer_counts_for_later_rulings(record: dict) -> None:
    moves = record["moves"][:10]
    again = replay(_with(record, [*moves, "! VOID 10", "! UNDO 11", "! VOID 10"]))
    assert again.ok, again.first_error
    assert again.position == replay(_with(record, moves[:9])).position
    assert void_check(_with(record, [*moves, "! VOID 10", "! UNDO 11"]), [10]) == []


def test_entry_marks_follow_voids_keeps_and_undos(record: dict) -> None:
    moves = record["moves"][:10]
    assert entry_marks([*moves, "! VOID 9 KEEP 10"]) == {9: "void", 10: "kept"}
    assert entry_marks([*moves, "! VOID 10", "! UNDO 11"]) == {11: "undone"}
    assert entry_marks([*moves, "! VOID 10", "! UNDO 11", "! VOID 9"]) == {
        9: "void",
        11: "undone",
    }
