"""Rating updates: the library's published example and a season worked by hand."""

from __future__ import annotations

import math

import pytest

from ratings.compute import MODEL, RatedGame, Skill, game_key, rate_games, team_strength


def test_the_librarys_published_example_two_against_two() -> None:
    # openskill's README: four new players, [a, b] beat [x, y].
    outcome = rate_games([RatedGame("k1", 1, (1, 2), (3, 4), "YB")])
    for winner in (1, 2):
        assert outcome.people[winner].mu == pytest.approx(26.964294621803063)
        assert outcome.people[winner].sigma == pytest.approx(8.177962604389991)
    for loser in (3, 4):
        assert outcome.people[loser].mu == pytest.approx(23.035705378196937)
        assert outcome.people[loser].sigma == pytest.approx(8.177962604389991)


def _by_hand(winners: list[list[float]], losers: list[list[float]]) -> list[list[list[float]]]:
    """Weng and Lin's Plackett-Luce update for two teams, written out."""
    beta2, tau2, kappa = MODEL.beta**2, MODEL.tau**2, 0.0001
    teams = [[[mu, math.sqrt(s * s + tau2)] for mu, s in team] for team in (winners, losers)]
    team_mu = [sum(mu for mu, _ in t) for t in teams]
    team_var = [sum(s * s for _, s in t) for t in teams]
    c = math.sqrt(sum(v + beta2 for v in team_var))
    e = [math.exp(m / c) for m in team_mu]
    p = [e[0] / (e[0] + e[1]), e[1] / (e[0] + e[1])]
    omega = [team_var[0] / c * (1 - p[0]), -team_var[1] / c * p[1]]
    delta = [math.sqrt(v) / c * v / c**2 * q * (1 - q) for v, q in zip(team_var, p, strict=True)]
    out = []
    for t, team in enumerate(teams):
        out.append(
            [
                [
                    mu + s * s / team_var[t] * omega[t],
                    math.sqrt(s * s * max(1 - s * s / team_var[t] * delta[t], kappa)),
                ]
                for mu, s in team
            ]
        )
    return out


def test_a_season_worked_by_hand_with_partners_changing() -> None:
    # Event 1: Anna+Bo beat Carl+Dina. Event 2: Anna+Carl lose to Bo+Dina.
    # Event 3: Anna+Dina beat Bo+Carl.
    games = [
        RatedGame("20260101-1", 1, (1, 2), (3, 4), "YB"),
        RatedGame("20260201-1", 2, (1, 3), (2, 4), "RG"),
        RatedGame("20260301-1", 3, (1, 4), (2, 3), "YB"),
    ]
    hand = {p: [25.0, 25 / 3] for p in (1, 2, 3, 4)}
    for g in games:
        win, lose = (g.yb, g.rg) if g.winner == "YB" else (g.rg, g.yb)
        new_win, new_lose = _by_hand([hand[p] for p in win], [hand[p] for p in lose])
        for people, new in ((win, new_win), (lose, new_lose)):
            for person, rating in zip(people, new, strict=True):
                hand[person] = rating
    outcome = rate_games(games)
    for person, (mu, sigma) in hand.items():
        assert outcome.people[person].mu == pytest.approx(mu, abs=1e-9)
        assert outcome.people[person].sigma == pytest.approx(sigma, abs=1e-9)
    # Anna, Bo and Dina each won two of three; Carl won none and is last.
    order = sorted(outcome.people, key=lambda p: -outcome.people[p].ordinal)
    assert order[-1] == 3
    assert outcome.people[1].games == 3 and outcome.people[1].wins == 2
    # Each pair played once: the pair ratings are the library's one-against-one update.
    assert set(outcome.pairs) == {(1, 2), (3, 4), (1, 3), (2, 4), (1, 4), (2, 3)}
    assert all(s.games == 1 for s in outcome.pairs.values())
    assert len(outcome.person_changes) == 12 and len(outcome.pair_changes) == 6


def test_games_are_rated_in_key_order_and_the_start_is_not_changed() -> None:
    start = {1: Skill(30.0, 5.0, 4, 3)}
    later = RatedGame("b", 2, (1, 2), (3, 4), "RG")
    earlier = RatedGame("a", 1, (1, 2), (3, 4), "YB")
    one_go = rate_games([later, earlier], people=start)
    assert [c.game_id for c in one_go.person_changes[::4]] == [1, 2]
    assert start[1] == Skill(30.0, 5.0, 4, 3)
    assert one_go.people[1].games == 6 and one_go.people[1].wins == 4
    # Rating the second game from the state after the first gives the same.
    first = rate_games([earlier], people=start)
    second = rate_games([later], people=first.people, pairs=first.pairs)
    assert second.people == one_go.people and second.pairs == one_go.pairs


def test_the_key_sorts_by_date_event_round_table() -> None:
    import datetime

    keys = [
        game_key(
            date=datetime.date(2026, 1, 2), tournament_id=1, round_number=1, table=1, game_id=9
        ),
        game_key(
            date=datetime.date(2026, 1, 1), tournament_id=2, round_number=7, table=50, game_id=1
        ),
        game_key(
            date=datetime.date(2026, 1, 1), tournament_id=2, round_number=2, table=60, game_id=3
        ),
    ]
    assert sorted(keys) == [keys[2], keys[1], keys[0]]


def test_team_strength_adds_means_and_uncertainties_in_square() -> None:
    assert team_strength([Skill(20, 3), Skill(30, 4)]) == pytest.approx(50 - 3 * 5)
