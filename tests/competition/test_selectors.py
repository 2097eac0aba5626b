"""Selectors on the database: standings, history, current round, table search."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competition.selectors import (
    byes_for_round,
    current_round,
    find_table,
    pair_history,
    pairings_for_round,
    standings_for_tournament,
)
from competition.services.pairing import round_pair
from tests.competition.helpers import event_with_pairs, pair_and_play
from tournament.models import Pair, Round
from tournament.services.registration import pair_drop

pytestmark = pytest.mark.django_db


def test_standings_from_played_rounds_with_bye_and_dropped_pair():
    tournament, organiser, pairs = event_with_pairs(5, points_bye=1)
    first = pair_and_play(tournament, organiser)
    bye_pair = byes_for_round(round=first)[0].pair
    pair_drop(pair=pairs[4], actor=organiser)
    rows = standings_for_tournament(tournament=tournament)
    by_pair = {r.pair.pk: r for r in rows}
    assert len(rows) == 5
    assert by_pair[bye_pair.pk].points == 1 and by_pair[bye_pair.pk].byes == 1
    assert by_pair[pairs[4].pk].dropped
    assert sum(r.wins for r in rows) == 2
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)


def test_standings_up_to_a_round_and_only_registered_pairs_left_out():
    tournament, organiser, _ = event_with_pairs(4)
    pair_and_play(tournament, organiser)
    pair_and_play(tournament, organiser)
    after_one = standings_for_tournament(tournament=tournament, up_to_round=1)
    after_two = standings_for_tournament(tournament=tournament)
    assert sum(r.points for r in after_one) == 4 and sum(r.points for r in after_two) == 8
    Pair.objects.create(
        tournament=tournament,
        start_number=99,
        player_1=after_one[0].pair.player_1.__class__.objects.create(
            tournament=tournament, name="X"
        ),
        player_2=after_one[0].pair.player_1.__class__.objects.create(
            tournament=tournament, name="Y"
        ),
    )
    assert len(standings_for_tournament(tournament=tournament)) == 4


def test_current_round_hides_drafts_from_the_public():
    tournament, organiser, _ = event_with_pairs(4)
    played = pair_and_play(tournament, organiser)
    draft = round_pair(tournament=tournament, actor=organiser)
    assert current_round(tournament=tournament) == played
    assert current_round(tournament=tournament, include_drafts=True) == draft


def test_pair_history_lists_games_with_results_and_points():
    tournament, organiser, pairs = event_with_pairs(4)
    pair_and_play(tournament, organiser)
    pair_and_play(tournament, organiser)
    history = pair_history(pair=pairs[0])
    assert [h.round_number for h in history] == [1, 2]
    assert [h.result for h in history] == ["win", "win"]
    assert all(h.points == tournament.points_win and h.opponent for h in history)
    assert {h.colours for h in history} <= {"YB", "RG"}


def test_find_table_by_player_name_or_start_number():
    tournament, organiser, pairs = event_with_pairs(6)
    round_ = round_pair(tournament=tournament, actor=organiser)
    name = pairs[3].player_2.name
    found = find_table(round=round_, query=name.upper())
    assert len(found) == 1 and pairs[3].pk in (found[0].pair_yb_id, found[0].pair_rg_id)
    assert find_table(round=round_, query=str(pairs[3].start_number))[0] == found[0]
    assert find_table(round=round_, query="   ") == []
    assert find_table(round=round_, query="nobody at all") == []


def test_pairings_for_round_loads_players_in_few_queries():
    tournament, organiser, _ = event_with_pairs(12)
    round_ = round_pair(tournament=tournament, actor=organiser)
    with CaptureQueriesContext(connection) as queries:
        games = pairings_for_round(round=round_)
        names = [g.pair_yb.player_1.name + g.pair_rg.player_2.name for g in games]
    assert len(names) == 6 and len(queries) == 1
    assert round_.status == Round.Status.DRAFT
