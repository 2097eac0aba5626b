"""Statistics of a game against a record counted by hand."""

from __future__ import annotations

import datetime

import pytest

from stats.compute import (
    COMEBACK_STEPS,
    GameStats,
    game_stats,
    locked_at_progress,
    summarise,
)

# The opening of a self-played game (seed 148), read entry by entry:
RECORD = {
    "ruleset": "dm2023",
    "first_dealer": "G",
    "moves": [
        "Y 8: in",  # YB 487 steps left
        "R 13: in",  # RG 487
        "B 8: in",  # YB 486
        "G 13: in",  # RG 486
        "Y 4: YS-4",
        "R 3: RS+3",
        "B J: R3<>G11",  # a swap: R's pawn to G11, G's pawn to R3
        "G 12: GS+12",  # G's second pawn to G12
        "Y 11: in",
        "R 11: in",
        "B 1: BS+14",
        "G X: 7 12",  # a discard of two cards
        "Y 11: in",
        "R 7: RS+6 G11+1",  # a split 7: R's pawn on G11 steps onto G12, hitting its partner
    ],
}
T0 = datetime.datetime(2026, 11, 28, 10, 0, tzinfo=datetime.UTC)


def test_a_game_counted_by_hand() -> None:
    times = [T0 + datetime.timedelta(seconds=30 * (i + 1)) for i in range(14)]
    stats = game_stats(game_id=1, record=RECORD, times=times, started_at=T0)
    assert stats.complete and stats.entries == 14 and stats.winner is None
    assert stats.minutes == pytest.approx(7.0)
    assert stats.seconds_per_entry == pytest.approx(30.0)
    played = {card: n for card, n in stats.cards.items() if n}
    assert played == {"8": 2, "13": 2, "4": 1, "3": 1, "J": 1, "12": 1, "11": 3, "1": 1, "7": 1}
    assert (stats.discards, stats.discarded_cards) == (1, 2)
    # Per seat, read from the entries' seat letters (G's third entry is a discard).
    by_seat = {
        seat: {c: n for c, n in cards.items() if n} for seat, cards in stats.cards_by_seat.items()
    }
    assert by_seat == {
        "Y": {"8": 1, "4": 1, "11": 2},
        "R": {"13": 1, "3": 1, "11": 1, "7": 1},
        "B": {"8": 1, "J": 1, "1": 1},
        "G": {"13": 1, "12": 1},
    }
    assert (stats.swaps, stats.splits, stats.judge_entries) == (1, 1, 0)
    # Red/Green hit its own partner's pawn: given and taken by the same team.
    assert stats.hits_given == {"YB": 0, "RG": 1}
    assert stats.hits_taken == {"YB": 0, "RG": 1}
    assert stats.distance[:5] == [(488, 488), (487, 488), (487, 487), (486, 487), (486, 486)]
    assert len(stats.distance) == len(stats.locked) == 15
    assert set(stats.locked) == {(0, 0)}


def test_the_minutes_run_from_the_first_entry_without_a_start_time() -> None:
    times = [T0 + datetime.timedelta(minutes=i) for i in range(14)]
    assert game_stats(game_id=1, record=RECORD, times=times).minutes == pytest.approx(13.0)
    assert game_stats(game_id=1, record=RECORD).minutes is None


def test_a_log_the_engine_rejects_is_not_complete() -> None:
    broken = {**RECORD, "moves": [*RECORD["moves"][:3], "B 8: in", *RECORD["moves"][3:]]}
    stats = game_stats(game_id=1, record=broken)
    assert not stats.complete and stats.entries == 3
    assert summarise([stats]).games == 0


def _game(game_id: int, distance: list[tuple[int, int]], winner: str | None) -> GameStats:
    stats = GameStats(game_id, entries=len(distance) - 1, winner=winner)
    stats.distance = distance
    return stats


def test_comebacks_longest_and_closest_games() -> None:
    comeback = _game(1, [(488, 488), (300, 300 - COMEBACK_STEPS), (0, 40)], "YB")
    narrow = _game(2, [(488, 488), (300, 300 - COMEBACK_STEPS + 1), (0, 5)], "YB")
    long = _game(3, [(488, 488)] * 9 + [(200, 0)], "RG")
    summary = summarise([comeback, narrow, long], top=2)
    assert [g.game_id for g in summary.comebacks] == [1]
    assert [g.game_id for g in summary.longest] == [3, 1]
    assert [g.game_id for g in summary.closest] == [2, 1]
    assert summary.games == 3 and summary.entries == 2 + 2 + 9


def _locked_game(game_id: int, locked: list[tuple[int, int]], winner: str | None) -> GameStats:
    stats = GameStats(game_id, entries=len(locked) - 1, winner=winner)
    stats.distance = [(488, 488)] * len(locked)
    stats.locked = locked
    return stats


def test_locked_pawns_after_each_tenth_of_the_games() -> None:
    # 10 entries, Yellow/Blue win: point k is the position after entry k.
    short = _locked_game(1, [(0, 0)] * 5 + [(1, 0)] * 4 + [(2, 1), (4, 1)], "YB")
    # 20 entries, Red/Green win, one more lock every 5 entries: point k is after entry 2k.
    long = _locked_game(2, [(0, i // 5) for i in range(21)], "RG")
    unfinished = _locked_game(3, [(3, 3)] * 5, None)
    assert locked_at_progress(short) == [(0, 0)] * 5 + [(1, 0)] * 4 + [(2, 1), (4, 1)]
    assert [w for w, _ in locked_at_progress(long)] == [0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4]
    assert locked_at_progress(unfinished) == []
    summary = summarise([short, long, unfinished])
    assert summary.locked_winners == [0, 0, 0, 0.5, 0.5, 1.5, 1.5, 1.5, 2, 2.5, 4]
    assert summary.locked_losers == [0] * 9 + [0.5, 0.5]
    assert summarise([unfinished]).locked_winners == []
