"""Judge entries in DUO records (docs/rulesets/duo.md "Judge entries"; RULES.md P1–P4, J1, J2).

The grammar is the four-seat one (games/engine/judge.py) with the DUO players
``Y``/``R``, the DUO areas and codes, and DUO moves; the replay through the
ruleset-neutral :func:`games.engine.replay` applies them in order.
"""

from __future__ import annotations

import random

import pytest

from games.engine import (
    DUO,
    DuoPosition,
    DuoState,
    EngineError,
    format_judge_entry,
    parse_judge_entry,
    replay,
    selfplay_game,
    void_check,
)

HOME = {a: [f"{a}H"] * 3 for a in ("YK", "RK", "YO", "RO")}


@pytest.fixture(scope="module")
def record() -> dict:
    return selfplay_game(3, DUO, first_dealer="Y")


def _with(record: dict, moves: list[str]) -> dict:
    return {**record, "moves": moves}


def _duo(**areas: list[str]) -> dict[str, list[str]]:
    return {**HOME, **areas}


@pytest.mark.parametrize(
    "text",
    [
        "! UPHOLD 12",
        "! VOID 3 5 KEEP 4",
        "! SET YK=YKH,YKH,YKS RK=RKH,RKH,RKH YO=YOH,YOH,YO7 RO=ROH,ROH,ROM1",
        "! P1 Y",
        "! P2 R RO7",
        "! P3 Y",
        "! P3 Y 5: YK3+5",
        "! P4 R 4: RK3+1 RK5+3",
        "! WARN R",
        "! WARN R P5",
        "! RESULT Y",
        "! RESULT R TIME",
        "! UNDO 7",
    ],
)
def test_duo_judge_entries_round_trip(text: str) -> None:
    """NOTATION.md judge entries with DUO players and codes read and write back the same."""
    assert format_judge_entry(parse_judge_entry(text, DUO)) == text


def test_duo_result_also_reads_the_side_code() -> None:
    """``! RESULT YB`` (the result code a server writes) is Y's side: written ``! RESULT Y``."""
    entry = parse_judge_entry("! RESULT YB", DUO)
    assert entry.team == "YB"
    assert format_judge_entry(entry) == "! RESULT Y"


@pytest.mark.parametrize(
    "text",
    [
        "! P1 B",  # DUO has the players Y and R only (S1)
        "! P2 R R7",  # a four-seat code
        "! SET Y=YH,YH,YH,YH R=RH,RH,RH,RH B=BH,BH,BH,BH G=GH,GH,GH,GH",
        "! P3 Y 5: Y3+5",
        "! RESULT G",
        "! RESULT Y LATE",
    ],
)
def test_four_seat_notation_is_refused_in_a_duo_record(text: str) -> None:
    """Rule N: a DUO judge entry names DUO players, areas and codes."""
    with pytest.raises(EngineError) as err:
        parse_judge_entry(text, DUO)
    assert err.value.rule == "N"


def test_p1_penalty_hand_at_the_next_duo_deal(record: dict) -> None:
    """P1: the penalised player is dealt 3 cards (``penalty_hand_size``) at the next deal (D4)."""
    result = replay(_with(record, [*record["moves"][:2], "! P1 Y"]))
    state = result.state
    assert isinstance(state, DuoState)
    assert state.penalised == ("Y",)
    deal = state.deal_number
    for text in record["moves"][2:]:
        state, _ = state.play(text)
        if state.deal_number != deal:
            break
    assert state.hand_sizes == {"Y": 3, "R": 4}
    assert state.penalised == ()


def test_p2_sends_the_players_pawn_home(record: dict) -> None:
    """P2: the named player's pawn on a track field goes back to its home area."""
    start = replay(_with(record, record["moves"][:3])).position.to_json()
    red_on_track = [(a, c) for a in ("RK", "RO") for c in start[a] if c[2:] not in "HSM"]
    area, code = red_on_track[0]
    after = replay(_with(record, [*record["moves"][:3], f"! P2 R {code}"]))
    assert after.ok
    assert code not in after.position.to_json()[area]
    assert after.position.to_json()[area].count(f"{area}H") == start[area].count(f"{area}H") + 1


def test_p2_refuses_a_field_without_the_players_pawn(record: dict) -> None:
    result = replay(_with(record, [*record["moves"][:3], "! P2 Y YK9"]))
    assert result.first_error is not None
    assert result.first_error.rule == "P2"
    assert result.first_error.message_da


@pytest.mark.parametrize("kind", ["P3", "P4"])
def test_p3_p4_forced_move_is_played_as_the_players_entry(kind: str) -> None:
    """P3/P4 with a move: the forced DUO move is played as the player's own entry (D2 applies)."""
    base = {"ruleset": "duo", "first_dealer": "Y", "moves": [f"! {kind} R 8: in RK"]}
    result = replay(base)
    assert result.ok
    assert result.position.to_json()["RK"] == ["RKH", "RKH", "RKS"]
    assert result.state.to_move == "Y"
    wrong = replay({**base, "moves": [f"! {kind} Y 8: in YK"]})
    assert wrong.first_error is not None and wrong.first_error.rule == "D2"


def test_set_moves_the_pawns_and_a_won_position_ends_the_game() -> None:
    """``! SET`` gives the real position; six locked pawns win (DUO W1)."""
    won = "! SET YK=YKM1,YKM2,YKM3 RK=RKH,RKH,RKH YO=YOM1,YOM2,YOM3 RO=ROH,ROH,ROH"
    result = replay({"ruleset": "duo", "first_dealer": "Y", "moves": [won, "R 8: in RK"]})
    assert result.first_error is not None
    assert result.first_error.rule == "W1"
    assert result.winner == "YB"
    assert result.state.to_move is None


def test_result_awards_the_game_and_nothing_more_is_played(record: dict) -> None:
    result = replay(_with(record, [*record["moves"][:4], "! RESULT R TIME", record["moves"][4]]))
    assert result.first_error is not None and result.first_error.rule == "W1"
    assert result.winner == "RG"


def test_void_with_keep_replays_without_the_voided_entry(record: dict) -> None:
    """J1: a voided entry no longer counts; a kept one counts as played but moves nothing."""
    moves = record["moves"][:6]
    voided = replay(_with(record, [*moves, "! VOID 6"]))
    assert voided.ok
    assert voided.position == replay(_with(record, moves[:5])).position
    assert voided.state.to_move == replay(_with(record, moves[:5])).state.to_move
    conflicts = void_check(_with(record, moves), [2])
    assert conflicts and conflicts[0]["entry"] == 3
    kept = replay(_with(record, [*moves, "! VOID 2 KEEP 3 4 5 6"]))
    assert kept.ok
    played = replay(_with(record, moves)).state.cards_seen
    voided_card = moves[1].split()[1].rstrip(":")
    assert kept.state.cards_seen == {**played, voided_card: played[voided_card] - 1}
    assert kept.position.to_json()["YO"] == ["YOH", "YOH", "YOH"]  # entry 2 entered YO


def test_void_refusals_name_j1(record: dict) -> None:
    moves = [*record["moves"][:4], "! P1 Y"]
    for bad in ("! VOID 5", "! VOID 9", "! UPHOLD 9"):
        result = replay(_with(record, [*moves, bad]))
        assert result.first_error is not None and result.first_error.rule == "J1", bad


def test_undo_takes_back_a_ruling_only(record: dict) -> None:
    """J2: an undone judge entry no longer counts; a played entry cannot be undone."""
    moves = [*record["moves"][:4], "! P1 Y"]
    undone = replay(_with(record, [*moves, "! UNDO 5"]))
    assert undone.ok and undone.state.penalised == ()
    refused = replay(_with(record, [*moves, "! UNDO 4"]))
    assert refused.first_error is not None and refused.first_error.rule == "J2"


def test_selfplay_duo_replays_with_judge_entries_reach_the_same_end() -> None:
    """Self-play DUO games with rulings that change nothing (UPHOLD, WARN) and with
    the last entry voided and played again replay to the same winner and position."""
    rng = random.Random(11)
    for seed in range(12):
        game = selfplay_game(seed, DUO)
        plain = replay(game)
        moves = list(game["moves"])
        for _ in range(4):
            at = rng.randrange(1, len(moves))
            seat = rng.choice("YR")
            moves.insert(at, rng.choice([f"! UPHOLD {at}", f"! WARN {seat}", f"! WARN {seat} P5"]))
        last = moves.pop()
        moves += [last, f"! VOID {len(moves) + 1}", last]
        ruled = replay({**game, "moves": moves})
        assert ruled.ok, (seed, ruled.first_error)
        assert ruled.winner == plain.winner is not None
        assert ruled.position == plain.position


def test_duo_state_from_a_judge_set_position() -> None:
    """A ``! SET`` position is a DUO position of the ruleset's board (B2, B3)."""
    entry = parse_judge_entry(
        '! SET {"YK": ["YKH","YKH","YKS"], "RK": ["RKH","RKH","RKH"], '
        '"YO": ["YOH","YOH","YOH"], "RO": ["ROH","ROH","RO3"]}',
        DUO,
    )
    assert isinstance(entry.position, DuoPosition)
    assert entry.position.to_json()["RO"] == ["ROH", "ROH", "RO3"]
