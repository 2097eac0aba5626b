"""The ruleset-neutral API (games/engine/facade.py): one call for four-seat and DUO games."""

from __future__ import annotations

import pytest

from games.engine import (
    DM2023,
    DUO,
    DuoPosition,
    DuoState,
    GameState,
    Position,
    ReplayResult,
    adjudicate,
    canonical_move,
    get_ruleset,
    initial_position,
    initial_state,
    position_from_json,
    position_legal_moves,
    position_play,
    remaining_distance,
    replay,
    selfplay_game,
)


def test_seats_and_sides_per_ruleset() -> None:
    """S1: DUO is two players, Y and R; the sides keep the result codes YB and RG."""
    assert get_ruleset("dm2023").seats == ("Y", "R", "B", "G")
    assert get_ruleset("duo").seats == ("Y", "R")
    assert DUO.teams == {"YB": ("Y",), "RG": ("R",)}
    assert DM2023.teams == {"YB": ("Y", "B"), "RG": ("R", "G")}
    assert (DM2023.pawns_per_side, DUO.pawns_per_side) == (8, 6)


@pytest.mark.parametrize("name", ["dm2023", "duo"])
def test_replay_dispatches_on_the_records_ruleset(name: str) -> None:
    record = selfplay_game(5, get_ruleset(name), first_dealer="Y")
    result = replay(record)
    assert isinstance(result, ReplayResult)
    assert result.ok and result.winner in ("YB", "RG")
    assert isinstance(result.state, DuoState if name == "duo" else GameState)
    assert result.state.winner == result.winner
    assert len(result.events) == result.moves_checked == len(record["moves"])


def test_initial_position_and_state_per_ruleset() -> None:
    """S2 and D2: every pawn at home; the player after the dealer opens."""
    assert initial_position(DM2023) == Position.initial()
    duo_home = initial_position(DUO)
    assert isinstance(duo_home, DuoPosition)
    assert duo_home.to_json()["YK"] == ["YKH", "YKH", "YKH"]
    state = initial_state("R", DUO)
    assert (state.to_move, state.hand_sizes) == ("Y", {"Y": 4, "R": 4})
    assert initial_state("Y", DM2023).to_move == "R"


def test_position_from_json_reads_the_rulesets_notation() -> None:
    data = {"YK": ["YKH", "YKH", "YKS"], "RK": ["RKH"] * 3, "YO": ["YOH"] * 3, "RO": ["ROH"] * 3}
    assert position_from_json(data, DUO).to_json() == data
    four = position_from_json(Position.initial().to_json(), DM2023)
    assert four == Position.initial()


def test_moves_and_play_per_ruleset() -> None:
    """C3: a DUO start card enters either area; the canonical texts come back."""
    home = initial_position(DUO)
    assert position_legal_moves(home, "Y", "8", DUO) == ["8: in YK", "8: in YO"]
    after, events = position_play(home, "Y", "8: in YO", DUO)
    assert after.to_json()["YO"] == ["YOH", "YOH", "YOS"] and events == []
    assert canonical_move("8:   in YO", DUO) == "8: in YO"
    assert canonical_move("5: Y3+5", DM2023) == "5: Y3+5"
    assert position_legal_moves(Position.initial(), "Y", "8", DM2023) == ["8: in"]


def test_distance_and_adjudication_of_a_duo_position() -> None:
    """DUO W2: the sum of a player's six pawns' steps; fewer wins."""
    lay_last = 4 * DUO.board_fields + 3
    home = initial_position(DUO)
    dist = remaining_distance(home, DUO)
    assert dist["teams"] == {"YB": 6 * (lay_last + 1), "RG": 6 * (lay_last + 1)}
    assert adjudicate(home, DUO)["winner"] is None
    ahead, _ = position_play(home, "Y", "8: in YO", DUO)
    proposal = adjudicate(ahead, DUO)
    assert proposal["winner"] == "YB"
    assert proposal["reason_en"].endswith("(W2).") and proposal["reason_da"].endswith("(W2).")


def test_duo_state_lists_legal_entries_with_their_effects() -> None:
    """T2: a DUO hit is written as in the four-seat effects, with DUO area codes."""
    start = position_from_json(
        {"YK": ["YKH", "YKH", "YKS"], "RK": ["RKH", "RKH", "YK2"], "YO": ["YOH"] * 3,
         "RO": ["ROH"] * 3},
        DUO,
    )  # fmt: skip
    state = initial_state("R", DUO, start)
    assert state.to_move == "Y"
    entries, effects = state.legal_entries_with_effects()
    hit = entries["2"].index("2: YKS+2")
    assert effects["2"][hit] == "YKS>YK2 YK2>RKH hRK@YK2"
    after, events = state.play("Y 2: YKS+2")
    assert [e.to_json() for e in events] == [{"type": "hit", "colour": "RK", "at": "YK2"}]
    assert after.to_move == "R" and after.hand_sizes == {"Y": 3, "R": 4}
