"""replay_steps: the game entry by entry, as replay() sees it."""

from __future__ import annotations

from games.engine import Discard, Move, replay, replay_steps, selfplay_game


def test_the_steps_end_where_replay_ends() -> None:
    record = selfplay_game(7)
    steps = list(replay_steps(record))
    result = replay(record)
    assert len(steps) == result.moves_checked == len(record["moves"])
    assert steps[-1].position == result.position
    assert steps[-1].winner == result.winner is not None
    assert [s.events for s in steps] == result.events
    assert all(s.seat == s.entry[0] for s in steps)
    assert all(isinstance(s.action, Move | Discard) for s in steps)


def test_the_steps_stop_before_a_rejected_entry() -> None:
    record = {
        "ruleset": "dm2023",
        "first_dealer": "Y",
        "moves": ["R 8: in", "B 8: in", "Y 8: in", "G 8: in"],
    }
    steps = list(replay_steps(record))
    assert [s.entry for s in steps] == ["R 8: in", "B 8: in"]  # then it is G's turn (D2)
    assert replay(record).first_error is not None
    assert steps[0].position.pawns("R").count("RS") == 1


def test_team_standing_agrees_with_remaining_distance_and_locked_pawns() -> None:
    from games.engine import Position, remaining_distance, team_standing

    for step in list(replay_steps(selfplay_game(11)))[::7]:
        yb, rg, locked_yb, locked_rg = team_standing(step.position)
        assert {"YB": yb, "RG": rg} == remaining_distance(step.position)["teams"]
        locked = {
            t: sum(len(step.position.locked(s)) for s in seats)
            for t, seats in (("YB", "YB"), ("RG", "RG"))
        }
        assert (locked_yb, locked_rg) == (locked["YB"], locked["RG"])
    assert team_standing(Position.initial()) == (488, 488, 0, 0)
