"""Effects of legal entries (GameState.legal_effects): moves, hits, locks, winner.

Each effect must say exactly what the engine does when the entry is played;
the rule ids are those of RULES.md.
"""

from __future__ import annotations

import random

import pytest

from games.engine import (
    CARDS,
    SEATS,
    GameState,
    Position,
    apply_move,
    index_effects,
    parse_effect,
    selfplay_game,
)
from games.engine.game import read_record

from .helpers import P


def state(position: Position, seat: str = "Y") -> GameState:
    return GameState(
        position=position,
        to_move=seat,
        dealer=SEATS[(SEATS.index(seat) - 1) % 4],
        deal_number=1,
        hand_sizes=dict.fromkeys(SEATS, 4),
        cards_seen=dict.fromkeys(CARDS, 0),
        winner=None,
        finished_seats=(),
    )


def effect(position: Position, seat: str, move: str) -> str:
    st = state(position, seat)
    card = move.split(":")[0]
    entries, effects = st.legal_entries()[card], st.legal_effects()[card]
    assert len(entries) == len(effects)
    return effects[entries.index(move)]


def test_c8_entering_moves_a_pawn_from_the_start_circle_to_the_start_field():
    assert effect(P(), "Y", "8: in") == "YH>YS"


def test_c2_plain_move_names_source_and_destination():
    assert effect(P(Y=["Y3"]), "Y", "5: Y3+5") == "Y3>Y8"


def test_t2_hit_names_the_pawn_hit_home_and_where():
    # R's single pawn on Y8 goes to its start circle (T2)
    assert effect(P(Y=["Y3"], R=["Y8"]), "Y", "5: Y3+5") == "Y3>Y8 Y8>RH hR@Y8"


def test_t2_mover_landing_on_a_pair_is_hit_home_itself():
    assert effect(P(Y=["Y3", "Y2"], R=["Y8", "Y8"]), "Y", "5: Y3+5") == "Y3>YH hY@Y8"


def test_c7_seven_split_over_two_pawns_that_hits():
    p = P(Y=["Y3", "Y10"], G=["Y12"])
    # parts in order: Y3 five steps to Y8, then Y10 two steps onto G's single pawn (C7, T2)
    assert effect(p, "Y", "7: Y3+5 Y10+2") == "Y3>Y8 Y10>Y12 Y12>GH hG@Y12"
    # the same parts in the other order do the same
    assert effect(p, "Y", "7: Y10+2 Y3+5") == "Y3>Y8 Y10>Y12 Y12>GH hG@Y12"
    # another split moves differently and hits nobody
    assert effect(p, "Y", "7: Y3+6 Y10+1") == "Y3>Y9 Y10>Y11"


def test_c9_swap_exchanges_two_pawns_without_hits():
    p = P(Y=["Y3"], R=["R10"])
    assert effect(p, "Y", "J: Y3<>R10") == "Y3>R10 R10>Y3"


def test_f2_entry_that_locks():
    # G12 + 6: G13 G14 YM4 YM3 YM2 YM1, the lock target (F2)
    assert effect(P(Y=["G12"]), "Y", "6: G12+6") == "G12>YM1 lY@YM1"
    assert effect(P(Y=["G12"]), "Y", "5: G12+5") == "G12>YM2"


def test_f5_turning_pawn_that_locks():
    # DM guide: red on RM3 with RM4 occupied, RM1 locked, plays 5 and locks on RM2 (F5)
    p = P(R=["RM1", "RM3", "RM4"])
    assert effect(p, "R", "5: RM3+5") == "RM3>RM2 lR@RM2"


def test_c7_rest_on_partner_pawns_after_the_last_own_pawn_locks():
    p = P(Y=["YM1", "YM2", "YM3", "G13"], B=["B1"])
    assert effect(p, "Y", "7: G13+2 B1+5") == "G13>YM4 B1>B6 lY@YM4"


def test_w1_winning_entry_names_the_winner():
    p = P(Y=["YM1", "YM2", "YM3", "G13"], B=["BM1", "BM2", "BM3", "BM4"])
    assert effect(p, "Y", "7: G13+2") == "G13>YM4 lY@YM4 wYB"
    assert "w" not in effect(p, "Y", "7: G13+7")


def test_game_over_has_no_effects():
    st = state(P())
    done = GameState(**{**st.__dict__, "to_move": None, "winner": "YB"})
    assert done.legal_effects() == {}


def test_parse_effect_reads_every_token():
    assert parse_effect("G13>YM4 Y8>RH hR@Y8 lY@YM4 wYB") == {
        "moves": [["G13", "YM4"], ["Y8", "RH"]],
        "events": [
            {"type": "hit", "colour": "R", "at": "Y8"},
            {"type": "lock", "colour": "Y", "at": "YM4"},
        ],
        "winner": "YB",
    }
    assert parse_effect("") == {"moves": [], "events": [], "winner": None}


def test_index_effects_shares_equal_effects_and_keeps_order():
    per_card = {"7": ["a", "b", "a"], "5": ["b"], "8": []}
    packed = index_effects(per_card)
    assert packed == {"effects": ["a", "b"], "by_card": {"7": [0, 1, 0], "5": [1], "8": []}}
    for card, effects in per_card.items():
        assert [packed["effects"][i] for i in packed["by_card"][card]] == effects


def _apply_effect(position: Position, eff: dict) -> dict[str, list[str]]:
    """Move the pawns named by the effect; a pawn's colour is read in the position before."""
    before = position.to_json()
    data = {s: list(locs) for s, locs in before.items()}
    used: set[tuple[str, int]] = set()
    for src, dst in eff["moves"]:
        colour = next(s for s in SEATS if src in before[s])
        i = next(
            i for i, loc in enumerate(before[colour]) if loc == src and (colour, i) not in used
        )
        used.add((colour, i))
        data[colour][i] = dst
    return Position.from_json(data).to_json()


@pytest.mark.parametrize("seed", [3, 11])
def test_every_effect_equals_what_the_engine_does(seed):
    """Against GameState.play for every legal entry of sampled states of whole games."""
    record = selfplay_game(seed, first_dealer="G")
    _, game, moves = read_record(record, None)
    rng = random.Random(seed)
    checked = 0
    for index, text in enumerate(moves):
        if rng.random() < 0.25:
            st = game.snapshot()
            entries, effects = st.legal_entries(), st.legal_effects()
            assert entries.keys() == effects.keys()
            for card, texts in entries.items():
                assert len(texts) == len(effects[card])
                for move, eff_text in zip(texts, effects[card], strict=True):
                    eff = parse_effect(eff_text)
                    after, events = st.play(f"{st.to_move} {move}")
                    assert _apply_effect(st.position, eff) == after.position.to_json(), move
                    assert eff["events"] == [e.to_json() for e in events], move
                    assert eff["winner"] == after.winner, move
                    assert apply_move(st.position, st.to_move, move).position == after.position
                    checked += 1
        game.entry(text, moves, index)
    assert checked > 500
