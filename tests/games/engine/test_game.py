"""Game flow and replay (RULES D1–D7, W1; NOTATION "Game record")."""

import pytest

from games.engine import (
    CARDS,
    GameState,
    NotationError,
    Position,
    PositionError,
    replay,
    selfplay_game,
)
from games.engine.ruleset import DM2023
from games.engine.selfplay import draw_first_dealer

from .helpers import P


def record(moves, first_dealer="G", start=None):
    r = {
        "ruleset": "dm2023",
        "first_dealer": first_dealer,
        "players": {s: s for s in "YRBG"},
        "moves": moves,
    }
    if start is not None:
        r["start"] = start.to_json()
    return r


def first_error(moves, **kw):
    res = replay(record(moves, **kw))
    assert not res.ok and res.first_error is not None
    return res.first_error


def test_simple_game_start_replays():
    res = replay(record(["Y 11: in", "R X: 2 3 5 6", "B 8: in", "G 13: in", "Y 5: YS+5"]))
    assert res.ok and res.moves_checked == 5 and res.first_error is None
    assert res.position.pawns("Y") == ["YH", "YH", "YH", "Y5"]
    assert res.winner is None
    st = res.state
    assert st.to_move == "B"  # R discarded and sits out (D4)
    assert st.hand_sizes == {"Y": 2, "R": 0, "B": 3, "G": 3}
    assert st.cards_seen["11"] == 1 and st.cards_seen["2"] == 1
    assert st.dealer == "G" and st.deal_number == 1


def test_d2_player_left_of_dealer_opens_and_play_goes_clockwise():
    e = first_error(["R 11: in"])
    assert (e.index, e.rule) == (0, "D2")
    assert e.message and e.message_da
    assert first_error(["Y 11: in", "B 11: in"]).rule == "D2"
    assert replay(record(["R 11: in"], first_dealer="Y")).ok


def test_d4_discard_must_show_the_whole_hand():
    assert first_error(["Y X: 2 3"]).rule == "D4"
    e = first_error(["Y X: 2 3 5 6 9"])
    assert e.rule == "D4"


def test_d4_discard_only_without_a_legal_move():
    e = first_error(["Y X: 2 3 5 11"])
    assert e.rule == "D4" and "11: in" in e.message


def test_d4_swap_card_counts_as_playable():
    start = P(G=["G2"], R=["R5"])
    e = first_error(["Y X: 2 3 5 J"], start=start)
    assert e.rule == "D4" and "J: R5<>G2" in e.message
    assert replay(record(["Y X: 2 3 5 J"])).ok  # nothing to swap at the start


def test_d4_discard_after_playing_shows_remaining_cards():
    moves = ["Y 11: in", "R X: 2 3 5 6", "B X: 2 3 5 6", "G X: 2 3 5 6", "Y X: 4 4 4"]
    e = first_error(moves)
    assert e.rule == "D4"  # 4: YS-4 is playable
    assert replay(record([*moves[:4], "Y 4: YS-4"])).ok


def test_d6_no_kind_more_than_four_times_between_shuffles():
    moves = ["Y 11: in", "R 11: in", "B 11: in", "G 11: in", "Y 11: in"]
    e = first_error(moves)
    assert (e.index, e.rule) == (4, "D6")
    assert first_error(["Y X: 2 2 2 2", "R X: 2 3 5 6"]).rule == "D6"


def test_d5_deals_and_dealer_rotation():
    # two deals of discards: the same dealer deals again without shuffling
    deal = ["Y X: 1 2 3 4", "R X: 1 2 3 4", "B X: 5 6 9 10", "G X: 5 6 9 10"]
    res = replay(record(deal))
    assert res.ok and res.state.deal_number == 2 and res.state.dealer == "G"
    assert res.state.hand_sizes == dict.fromkeys("YRBG", 4)
    assert res.state.to_move == "Y"
    again = ["Y X: 5 6 9 10", "R X: 5 6 9 10", "B X: 5 1 2 3"]
    e = first_error(deal + again)
    assert (e.index, e.rule) == (6, "D6")  # the deck is not shuffled between a dealer's deals


def test_d5_dealer_passes_left_after_three_deals_in_a_real_game():
    rec = selfplay_game(11, first_dealer="R")
    state = GameState.initial("R")
    seen_deals = [(state.dealer, state.deal_number)]
    for entry in rec["moves"]:
        state, _ = state.play(entry)
        key = (state.dealer, state.deal_number)
        if state.winner is None and key != seen_deals[-1]:
            prev_dealer, prev_n = seen_deals[-1]
            if prev_n < 3:
                assert key == (prev_dealer, prev_n + 1)
            else:
                assert key == ("YRBG"["YRBG".index(prev_dealer) + 1 - 4], 1)
                assert sum(state.cards_seen.values()) == 0  # new shuffle (D6 counts reset)
            assert state.hand_sizes == dict.fromkeys("YRBG", 4)
            assert state.to_move == "YRBG"["YRBG".index(state.dealer) + 1 - 4]
            seen_deals.append(key)
    assert len(seen_deals) > 6 and state.winner is not None


def test_w1_win_ends_the_game_at_once():
    start = P(Y=["YM1", "YM2", "YM3", "G14"], B=["BM1", "BM2", "BM3", "BM4"], R=["R1"])
    res = replay(record(["Y 1: G14+1"], start=start))
    assert res.ok and res.winner == "YB" and res.state.to_move is None
    assert [e.to_json() for e in res.events[0]] == [{"type": "lock", "colour": "Y", "at": "YM4"}]
    e = first_error(["Y 1: G14+1", "R 5: R1+5"], start=start)
    assert (e.index, e.rule) == (1, "W1")


def test_s3_finished_player_moves_partner_pawns_in_a_game():
    start = P(Y=["YM1", "YM2", "YM3", "YM4"], B=["B3"])
    res = replay(
        record(["Y 5: B3+5", "R X: 1 2 3 4", "B 11: in", "G X: 1 2 3 4", "Y 8: in"], start=start)
    )
    assert res.ok, res.first_error
    assert res.position.pawns("B") == ["BH", "BS", "BS", "B8"]


def test_illegal_move_reported_with_rule_and_position_kept():
    start = P(Y=["Y3", "Y10"], R=["RS"])
    res = replay(record(["Y 7: Y3+2 Y10+5"], start=start))
    assert not res.ok and res.moves_checked == 0
    assert res.first_error.rule == "T4" and res.first_error.index == 0
    assert res.first_error.move == "Y 7: Y3+2 Y10+5"
    assert res.position == start  # the half-played 7 is undone


def test_unreadable_entry_is_rule_n():
    e = first_error(["Y 11: in", "R banana"])
    assert (e.index, e.rule) == (1, "N")
    assert first_error(["Q 11: in"]).rule == "N"
    assert first_error([17]).rule == "N"


def test_events_per_entry():
    start = P(Y=["Y3"], R=["Y8"])
    res = replay(record(["Y 5: Y3+5"], start=start))
    assert [[e.to_json() for e in evs] for evs in res.events] == [
        [{"type": "hit", "colour": "R", "at": "Y8"}]
    ]


def test_replay_to_json_shape():
    out = replay(record(["Y 11: in", "R 12: in"])).to_json()
    assert set(out) == {"ok", "moves_checked", "position", "winner", "first_error"}
    assert out["ok"] is False and out["moves_checked"] == 1
    assert out["first_error"]["index"] == 1 and out["first_error"]["rule"] == "C8"
    assert set(out["first_error"]) >= {"index", "move", "rule", "message"}


@pytest.mark.parametrize(
    "bad",
    [
        {"first_dealer": "G", "moves": []},
        {"ruleset": "nope", "first_dealer": "G", "moves": []},
        {"ruleset": "dm2023", "first_dealer": "Q", "moves": []},
        {"ruleset": "dm2023", "first_dealer": "G"},
        {"ruleset": "dm2023", "first_dealer": "G", "moves": "Y 11: in"},
        [],
    ],
)
def test_malformed_record_raises(bad):
    with pytest.raises(NotationError):
        replay(bad)


def test_bad_start_position_raises():
    with pytest.raises(PositionError):
        replay(
            {
                "ruleset": "dm2023",
                "first_dealer": "G",
                "moves": [],
                "start": {"Y": ["YH"], "R": [], "B": [], "G": []},
            }
        )


def test_gamestate_legal_entries_and_play():
    st = GameState.initial("G")
    entries = st.legal_entries()
    assert st.to_move == "Y" and set(entries) == set(CARDS)
    assert {c: m for c, m in entries.items() if m} == {
        "8": ["8: in"],
        "11": ["11: in"],
        "13": ["13: in"],
    }
    nxt, events = st.play("Y 11: in")
    assert events == [] and nxt.to_move == "R" and st.to_move == "Y"
    after4 = GameState.initial("G")
    for e in ["Y 11: in", "R 11: in", "B 11: in", "G 11: in"]:
        after4, _ = after4.play(e)
    assert "11" not in after4.legal_entries()  # all four 11s are out (D6)


def test_d7_first_dealer_draw_values():
    import random

    for seed in range(20):
        assert draw_first_dealer(random.Random(seed)) in "YRBG"
    from games.engine.selfplay import _DRAW_VALUE

    assert _DRAW_VALUE["J"] == _DRAW_VALUE["11"] == 0 and _DRAW_VALUE["1"] == 14
    assert _DRAW_VALUE["13"] == 13 and _DRAW_VALUE["8"] == 8


def test_start_position_keeps_deal_cycle():
    start = P(Y=["Y3"])
    st = replay(record([], first_dealer="B", start=start)).state
    assert st.to_move == "G" and st.deal_number == 1 and st.position == start
    assert Position.initial() != start


def test_d1_d3_one_card_and_one_move_per_turn_from_hands_of_four():
    res = replay(record(["Y 11: in", "R X: 2 3 5 6", "B 11: in", "G 11: in"]))
    assert res.state.hand_sizes == {"Y": 3, "R": 0, "B": 3, "G": 3}  # D1: 4 cards each
    # D3: one card, one move, then the turn passes; a second entry by the same seat is D2
    assert first_error(["Y 11: in", "Y 8: in"]).rule == "D2"
    # a player who discarded sits out until the next deal (D4, D5)
    moves = ["Y 11: in", "R X: 2 3 5 6", "B 11: in", "G 11: in", "Y 8: in", "R 8: in"]
    e = first_error(moves)
    assert (e.index, e.rule) == (5, "D2") and "blue" in e.message


def test_d1_p1_penalised_player_is_dealt_three_cards_at_the_next_deal():
    from games.engine.game import Game

    g = Game(DM2023, 3)  # G deals, Y opens
    g.penalise(0)
    assert g.snapshot().penalised == ("Y",)
    for e in ["Y X: 1 2 3 4", "R X: 1 2 3 4", "B X: 5 6 9 10", "G X: 5 6 9 10"]:
        g.entry(e)
    st = g.snapshot()
    assert st.hand_sizes == {"Y": 3, "R": 4, "B": 4, "G": 4} and st.penalised == ()
    again, _ = st.play("Y X: 1 2 3")
    assert again.hand_sizes["Y"] == 0


def test_entry_handlers_dispatch_on_the_first_token():
    from games.engine import game as game_module

    seen = []

    def handler(game, text, record, index):
        seen.append((text, len(record), index))
        return []

    judge_entries = game_module.ENTRY_HANDLERS["!"]
    game_module.ENTRY_HANDLERS["!"] = handler
    try:
        res = replay(record(["Y 11: in", "! NOTE x", "R 11: in"]))
    finally:
        game_module.ENTRY_HANDLERS["!"] = judge_entries
    assert res.ok and res.moves_checked == 3 and seen == [("! NOTE x", 3, 1)]
    assert first_error(["! NOTE x"]).rule == "N"  # not a judge entry: unreadable
    assert first_error(["? NOTE x"]).rule == "N"  # no handler: unreadable
