"""Judge entries in a game record (``! …``): parse, format, replay (games/engine/judge.py)."""

from __future__ import annotations

import pytest

from games.engine import (
    EngineError,
    Position,
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


@pytest.mark.parametrize(
    "text",
    [
        "! UPHOLD 12",
        "! VOID 12",
        "! VOID 3 5 KEEP 4",
        "! SET Y=YH,YH,YS,Y3 R=RH,RH,RH,RH B=BH,BH,BH,BH G=GH,GH,GH,GH",
        "! P1 Y",
        "! P2 R R7",
        "! P3 Y",
        "! P3 Y 5: Y3+5",
        "! P4 G 7: G3+5 G7+2",
        "! WARN B",
        "! WARN B P5",
        "! RESULT YB",
        "! RESULT RG TIME",
    ],
)
def test_judge_entries_round_trip(text: str) -> None:
    assert format_judge_entry(parse_judge_entry(text)) == text


def test_set_accepts_json_and_writes_the_compact_form() -> None:
    entry = parse_judge_entry(
        '! SET {"Y": ["Y3", "YH", "YS", "YH"], "R": ["RH", "RH", "RH", "RH"],'
        ' "B": ["BH", "BH", "BH", "BH"], "G": ["GH", "GH", "GH", "GH"]}'
    )
    assert str(entry) == "! SET Y=YH,YH,YS,Y3 R=RH,RH,RH,RH B=BH,BH,BH,BH G=GH,GH,GH,GH"


@pytest.mark.parametrize(
    "text",
    ["! FOO", "! P1 X", "! P2 R RM1", "! VOID", "! VOID 3 KEEP 3", "! RESULT XY", "!P1 Y",
     "! SET Y=YH", "! WARN B nonsense"],
)  # fmt: skip
def test_unreadable_judge_entries_are_refused(text: str) -> None:
    with pytest.raises(EngineError):
        parse_judge_entry(text)


def test_a_record_without_judge_entries_replays_as_before(record: dict) -> None:
    result = replay(record)
    assert result.ok and result.winner in ("YB", "RG")
    assert result.moves_checked == len(record["moves"])


def test_no_effect_entries_change_nothing(record: dict) -> None:
    moves = record["moves"][:20]
    plain = replay(_with(record, moves))
    noted = replay(_with(record, [*moves, "! UPHOLD 20", "! WARN B P5", "! P3 Y", "! P4 R"]))
    assert noted.ok
    assert noted.position == plain.position
    assert noted.state.to_move == plain.state.to_move
    assert noted.state.hand_sizes == plain.state.hand_sizes


def test_p1_deals_three_cards_at_the_next_deal(record: dict) -> None:
    moves = record["moves"]
    # The first deal (dealer Y) ends after these entries; find where deal 2 begins.
    for n in range(1, len(moves)):
        if replay(_with(record, moves[:n])).state.deal_number == 2:
            break
    with_p1 = replay(_with(record, ["! P1 R", *moves[:n]]))
    without = replay(_with(record, moves[:n]))
    assert with_p1.ok
    assert without.state.hand_sizes == {"Y": 4, "R": 4, "B": 4, "G": 4}
    assert with_p1.state.hand_sizes == {"Y": 4, "R": 3, "B": 4, "G": 4}
    # Only the next deal: the penalty is used up.
    assert with_p1.state.penalised == ()


def test_p1_pending_survives_an_incremental_play(record: dict) -> None:
    moves = record["moves"]
    result = replay(_with(record, [*moves[:2], "! P1 G"]))
    assert result.state.penalised == ("G",)
    state, _events = result.state.play(moves[2])
    assert state.penalised == ("G",)


def test_p2_sends_the_talkers_pawn_home(record: dict) -> None:
    moves = record["moves"]
    for n in range(1, 60):
        position = replay(_with(record, moves[:n])).position
        track = [loc for loc in position.pawns("B") if loc[1:].isdigit()]
        if track:
            break
    loc = track[0]
    result = replay(_with(record, [*moves[:n], f"! P2 B {loc}"]))
    assert result.ok
    before = position.pawns("B")
    after = result.position.pawns("B")
    assert after.count("BH") == before.count("BH") + 1
    assert after.count(loc) == before.count(loc) - 1


def test_p2_without_such_a_pawn_is_refused(record: dict) -> None:
    result = replay(_with(record, ["! P2 B B7"]))
    assert not result.ok
    assert result.first_error.rule == "P2" and result.first_error.index == 0


def test_set_corrects_the_position_and_play_goes_on(record: dict) -> None:
    moves = record["moves"][:6]
    base = replay(_with(record, moves))
    data = base.position.to_json()
    data["Y"] = ["YH", "YH", "YH", "YH"]
    text = "! SET " + " ".join(f"{s}={','.join(data[s])}" for s in "YRBG")
    result = replay(_with(record, [*moves, text]))
    assert result.ok
    assert result.position == Position.from_json(data)
    assert result.state.to_move == base.state.to_move


def test_void_of_the_last_entry_gives_the_turn_back(record: dict) -> None:
    moves = record["moves"][:10]
    result = replay(_with(record, [*moves, "! VOID 10"]))
    without = replay(_with(record, moves[:9]))
    assert result.ok
    assert result.position == without.position
    assert result.state.to_move == without.state.to_move
    assert result.state.hand_sizes == without.state.hand_sizes
    assert void_check(_with(record, moves), [10]) == []


def test_void_reports_later_entries_that_become_illegal(record: dict) -> None:
    moves = record["moves"][:10]
    affected = void_check(_with(record, moves), [5])
    assert affected, "voiding a middle entry shifts the turn"
    assert [a["entry"] for a in affected] == sorted(a["entry"] for a in affected)
    assert all(a["entry"] > 5 for a in affected)
    assert affected[0]["rule"] and affected[0]["message"] and affected[0]["message_da"]
    # Without a decision for them the void itself is refused, naming the entry.
    refused = replay(_with(record, [*moves, "! VOID 5"]))
    assert not refused.ok and refused.first_error.index == 10
    assert str(affected[0]["entry"]) in refused.first_error.message
    # Voiding every later entry is always accepted.
    everything = replay(_with(record, [*moves, "! VOID 5 6 7 8 9 10"]))
    assert everything.ok
    assert everything.position == replay(_with(record, moves[:4])).position


def test_kept_entries_count_as_played_and_a_set_fixes_the_board(record: dict) -> None:
    moves = record["moves"][:10]
    affected = [a["entry"] for a in void_check(_with(record, moves), [5])]
    target = replay(_with(record, moves)).position
    text = "! SET " + " ".join(f"{s}={','.join(target.pawns(s))}" for s in "YRBG")
    keep = " ".join(map(str, affected))
    result = replay(_with(record, [*moves, f"! VOID 5 KEEP {keep}", text]))
    assert result.ok, result.first_error
    assert result.position == target


def test_void_cannot_target_a_judge_entry_or_a_later_entry(record: dict) -> None:
    moves = record["moves"][:4]
    assert not replay(_with(record, [*moves, "! WARN B", "! VOID 5"])).ok
    assert not replay(_with(record, [*moves, "! VOID 9"])).ok
    twice = replay(_with(record, [*moves, "! VOID 4", "! VOID 4"]))
    assert not twice.ok and twice.first_error.rule == "J1"


def test_a_later_void_keeps_earlier_voids(record: dict) -> None:
    moves = record["moves"][:12]
    first = replay(_with(record, [*moves[:10], "! VOID 10"]))
    assert first.ok
    # After the void the same seat plays again: re-log the original entry.
    again = replay(_with(record, [*moves[:10], "! VOID 10", moves[9], "! VOID 12"]))
    assert again.ok
    assert again.position == replay(_with(record, moves[:9])).position


def test_result_ends_the_game(record: dict) -> None:
    moves = record["moves"][:8]
    result = replay(_with(record, [*moves, "! RESULT RG TIME"]))
    assert result.ok and result.winner == "RG" and result.state.to_move is None
    after = replay(_with(record, [*moves, "! RESULT RG", record["moves"][8]]))
    assert not after.ok and after.first_error.rule == "W1"


def test_void_needs_the_whole_record(record: dict) -> None:
    state = replay(_with(record, record["moves"][:4])).state
    with pytest.raises(EngineError) as err:
        state.play("! VOID 2")
    assert err.value.rule == "J1"
