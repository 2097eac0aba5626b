"""The knockout bracket: seeding, byes, advancing, third place."""

from __future__ import annotations

import pytest

from competition.selectors import standings_for_tournament
from competition.services.knockout import (
    bracket_for_tournament,
    bracket_order,
    knockout_advance,
    knockout_create,
)
from competition.services.pairing import round_close, round_pair
from core.errors import ApplicationError
from tests.competition.helpers import event_with_pairs, pair_and_play, play
from tournament.models import Pair, Round

pytestmark = pytest.mark.django_db


def seeded(n, size, **settings):
    tournament, organiser, pairs = event_with_pairs(n, knockout_size=size, **settings)
    for pair in pairs:
        Pair.objects.filter(pk=pair.pk).update(seed=pair.start_number)
    return tournament, organiser, pairs


def starts(match):
    return (
        match.pair_a.start_number if match.pair_a else None,
        match.pair_b.start_number if match.pair_b else None,
    )


@pytest.mark.parametrize(
    ("size", "expected"),
    [(2, [1, 2]), (4, [1, 4, 2, 3]), (8, [1, 8, 4, 5, 2, 7, 3, 6])],
)
def test_bracket_order_keeps_top_seeds_apart(size, expected):
    assert bracket_order(size) == expected


def test_bracket_order_16_meets_only_in_the_final():
    order = bracket_order(16)
    assert sorted(order) == list(range(1, 17))
    assert order.index(1) < 8 <= order.index(2)
    assert [order[k] + order[k + 1] for k in range(0, 16, 2)] == [17] * 8


@pytest.mark.parametrize("size", [4, 8, 16])
def test_full_bracket_from_seeds_plays_to_a_final(size):
    tournament, organiser, _ = seeded(size, size, swiss_rounds=0)
    round_ = knockout_create(tournament=tournament, actor=organiser, source="seeds")
    first = bracket_for_tournament(tournament=tournament, include_drafts=True)[0]
    assert starts(first.matches[0]) == (1, size)
    assert len(first.matches) == size // 2
    rounds = 1
    while round_ is not None:
        play(round_, organiser)  # the lower start number (the better seed) wins
        round_ = knockout_advance(tournament=tournament, actor=organiser)
        rounds += round_ is not None
    assert rounds == {4: 2, 8: 3, 16: 4}[size]
    final = bracket_for_tournament(tournament=tournament)[-1]
    assert (final.name_en, final.name_da) == ("Final", "Finale")
    assert starts(final.matches[0]) == (1, 2)
    assert final.matches[0].winner.start_number == 1


def test_byes_go_to_the_top_seeds_when_the_field_is_short():
    tournament, organiser, _ = seeded(5, 8, swiss_rounds=0)
    round_ = knockout_create(tournament=tournament, actor=organiser, source="seeds")
    matches = bracket_for_tournament(tournament=tournament, include_drafts=True)[0].matches
    byes = sorted(m.pair_a.start_number for m in matches if m.is_bye)
    assert byes == [1, 2, 3]
    assert [starts(m) for m in matches if not m.is_bye] == [(4, 5)]
    assert round_.warnings[-1]["code"] == "knockout_byes"
    play(round_, organiser)
    semis = knockout_advance(tournament=tournament, actor=organiser)
    pairs = sorted(
        sorted((g.pair_yb.start_number, g.pair_rg.start_number)) for g in semis.games.all()
    )
    assert pairs == [[1, 4], [2, 3]]


def test_third_place_game_between_the_semi_final_losers():
    tournament, organiser, _ = seeded(4, 4, swiss_rounds=0, third_place_game=True)
    play(knockout_create(tournament=tournament, actor=organiser, source="seeds"), organiser)
    final_round = knockout_advance(tournament=tournament, actor=organiser)
    matches = bracket_for_tournament(tournament=tournament, include_drafts=True)[-1].matches
    assert [(starts(m), m.is_third_place) for m in matches] == [((1, 2), False), ((4, 3), True)]
    play(final_round, organiser)
    assert knockout_advance(tournament=tournament, actor=organiser) is None


def test_knockout_from_the_swiss_standings():
    tournament, organiser, _ = event_with_pairs(8, knockout_size=4, swiss_rounds=2)
    round_close(round=pair_and_play(tournament, organiser), actor=organiser)
    round_close(round=pair_and_play(tournament, organiser), actor=organiser)
    top = [row.pair for row in standings_for_tournament(tournament=tournament)[:4]]
    # Two rounds of 8 leave rank 4 shared; unseeded, the seed list is the start numbers.
    knockout_create(tournament=tournament, actor=organiser, cut="seed")
    first = bracket_for_tournament(tournament=tournament, include_drafts=True)[0]
    # 1st v 4th and 2nd v 3rd of the standings.
    assert [(m.pair_a, m.pair_b) for m in first.matches] == [(top[0], top[3]), (top[1], top[2])]
    with pytest.raises(ApplicationError) as err:
        round_pair(tournament=tournament, actor=organiser)
    assert err.value.code == "knockout_started"


def test_advance_refused_until_every_game_has_a_winner_and_create_only_once():
    tournament, organiser, _ = seeded(4, 4, swiss_rounds=0)
    knockout_create(tournament=tournament, actor=organiser, source="seeds")
    with pytest.raises(ApplicationError) as err:
        knockout_advance(tournament=tournament, actor=organiser)
    assert err.value.code == "round_not_complete"
    with pytest.raises(ApplicationError) as err:
        knockout_create(tournament=tournament, actor=organiser, source="seeds")
    assert err.value.code == "knockout_exists"
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_knockout_needs_a_size():
    tournament, organiser, _ = seeded(4, 0)
    with pytest.raises(ApplicationError) as err:
        knockout_create(tournament=tournament, actor=organiser)
    assert err.value.code == "knockout_disabled"
