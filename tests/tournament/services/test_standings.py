"""Standings: points, every tiebreak, the reason shown, byes and late entries."""

from __future__ import annotations

from tournament.services.standings import (
    ByeRecord,
    GameRecord,
    StandingPair,
    compute_standings,
)

ALL = ["buchholz", "wins", "locked_diff", "distance_diff", "head_to_head"]


def standings(n, games, byes=(), tiebreaks=ALL, win=2, loss=0):
    pairs = [StandingPair(pair_id=k, start_number=k) for k in range(1, n + 1)]
    return compute_standings(
        pairs, list(games), list(byes), points_win=win, points_loss=loss, tiebreaks=tiebreaks
    )


def order(rows):
    return [r.pair_id for r in rows]


def test_points_rank_first_and_count_configured_values():
    rows = standings(3, [GameRecord(1, 2, "RG"), GameRecord(3, 1, "YB")], win=3, loss=1)
    by_id = {r.pair_id: r for r in rows}
    assert (by_id[3].points, by_id[2].points, by_id[1].points) == (3, 3, 2)
    assert (by_id[1].wins, by_id[1].losses, by_id[1].games_played) == (0, 2, 2)
    assert order(rows)[-1] == 1


def test_buchholz_breaks_a_tie_and_the_reason_is_given():
    # 1 and 2 both have one win; 1 beat 3 (who later won), 2 beat 4 (no wins).
    games = [GameRecord(1, 3, "YB"), GameRecord(2, 4, "YB"), GameRecord(3, 4, "YB")]
    rows = standings(4, games)
    assert order(rows) == [1, 3, 2, 4]
    by_id = {r.pair_id: r for r in rows}
    assert [by_id[k].buchholz for k in (1, 2, 3, 4)] == [2, 0, 2, 4]
    assert by_id[2].tiebreak_note_en == "Buchholz 2 vs 0"
    # 1 and 3 are level on Buchholz and wins; 1 beat 3.
    assert by_id[3].tiebreak_note_en == "Head-to-head 2 vs 0"
    assert by_id[1].tiebreak_note_en == ""


def test_buchholz_ignores_byes_but_a_bye_scores_its_points():
    games = [GameRecord(1, 2, "YB")]
    rows = standings(3, games, byes=[ByeRecord(3, 2)])
    by_id = {r.pair_id: r for r in rows}
    assert by_id[3].points == 2 and by_id[3].byes == 1 and by_id[3].buchholz == 0
    assert by_id[1].buchholz == 0 and by_id[2].buchholz == 2
    assert order(rows) == [1, 3, 2]
    assert by_id[3].tiebreak_note_en == "Wins 1 vs 0"


def test_tiebreak_note_names_the_deciding_key_in_both_languages():
    games = [GameRecord(1, 3, "YB"), GameRecord(2, 4, "YB"), GameRecord(3, 4, "YB")]
    rows = standings(4, games, tiebreaks=["buchholz"])
    second_on_two_points = next(r for r in rows if r.pair_id == 2)
    assert second_on_two_points.tiebreak_note_en.startswith("Buchholz ")
    assert " vs " in second_on_two_points.tiebreak_note_en
    assert second_on_two_points.tiebreak_note_da.startswith("Buchholz ")
    assert " mod " in second_on_two_points.tiebreak_note_da


def test_locked_and_distance_differences():
    games = [
        GameRecord(1, 3, "YB", locked_yb=8, locked_rg=2, distance_yb=0, distance_rg=150),
        GameRecord(2, 4, "YB", locked_yb=8, locked_rg=6, distance_yb=0, distance_rg=40),
    ]
    rows = standings(4, games, tiebreaks=["locked_diff"])
    assert order(rows)[:2] == [1, 2]
    assert rows[1].tiebreak_note_en == "Locked-pawn difference 6 vs 2"
    rows = standings(4, games, tiebreaks=["distance_diff"])
    assert order(rows)[:2] == [1, 2]
    assert rows[1].tiebreak_note_da == "Forskel i restdistance 150 mod 40"
    assert rows[0].distance_diff == 150 and rows[0].locked_diff == 6


def test_unknown_details_do_not_count_in_the_differences():
    games = [GameRecord(1, 2, "YB", locked_yb=8, locked_rg=None)]
    rows = standings(2, games)
    assert rows[0].locked_for == 0 and rows[0].locked_diff == 0


def test_head_to_head_decides_among_the_tied_pairs_only():
    # 1 and 2 are the only pairs on 2 points; 2 beat 1 directly.
    games = [
        GameRecord(2, 1, "YB"),
        GameRecord(1, 3, "YB"),
        GameRecord(4, 2, "YB"),
        GameRecord(4, 3, "YB"),
    ]
    rows = standings(4, games, tiebreaks=["head_to_head"])
    tied = [r for r in rows if r.pair_id in (1, 2)]
    assert [r.pair_id for r in tied] == [2, 1]
    assert tied[1].tiebreak_note_en == "Head-to-head 2 vs 0"
    assert tied[0].head_to_head == 2


def test_tiebreak_order_is_configurable():
    # 1: more wins but lower Buchholz than 2 (both on 4 points via a bye).
    games = [
        GameRecord(1, 5, "YB"),
        GameRecord(1, 6, "YB"),
        GameRecord(2, 3, "YB"),
        GameRecord(3, 4, "YB"),
        GameRecord(3, 5, "YB"),
    ]
    byes = [ByeRecord(2, 2)]
    by_wins = standings(6, games, byes, tiebreaks=["wins", "buchholz"])
    by_buchholz = standings(6, games, byes, tiebreaks=["buchholz", "wins"])
    assert order(by_wins).index(1) < order(by_wins).index(2)
    assert order(by_buchholz).index(2) < order(by_buchholz).index(1)


def test_full_tie_shares_the_rank():
    rows = standings(4, [GameRecord(1, 2, "YB"), GameRecord(3, 4, "YB")], tiebreaks=["wins"])
    assert [r.rank for r in rows] == [1, 1, 3, 3]
    assert all(r.shared_rank for r in rows)
    assert rows[1].tiebreak_note_da == "Helt lige med rækken ovenfor: delt placering"


def test_late_entry_starts_on_zero_and_missed_rounds_count_nothing():
    games = [GameRecord(1, 2, "YB"), GameRecord(3, 1, "YB")]
    rows = standings(3, games)
    late = next(r for r in rows if r.pair_id == 3)
    assert (late.points, late.games_played, late.byes) == (2, 1, 0)
