"""The knockout cut waits for the Swiss rounds: due once the planned rounds are
played and closed, earlier only by the organiser's explicit early cut."""

from __future__ import annotations

import pytest

from competition.selectors_knockout import knockout_readiness
from competition.services.knockout import knockout_create
from competition.services.pairing import round_close, round_pair
from core.errors import ApplicationError
from tests.competition.helpers import event_with_pairs, pair_and_play
from tournament.models import AuditEntry, Pair, Round

pytestmark = pytest.mark.django_db


def _event(swiss_rounds=3):
    tournament, organiser, _pairs = event_with_pairs(8, knockout_size=4, swiss_rounds=swiss_rounds)
    Pair.objects.filter(tournament=tournament).update(status=Pair.Status.CHECKED_IN)
    return tournament, organiser


def _closed_round(tournament, organiser):
    return round_close(round=pair_and_play(tournament, organiser), actor=organiser)


def _refusal(tournament, organiser, **options):
    with pytest.raises(ApplicationError) as err:
        knockout_create(tournament=tournament, actor=organiser, **options)
    assert not tournament.rounds.filter(kind=Round.Kind.KNOCKOUT).exists()
    return err.value


@pytest.mark.parametrize("early", [False, True])
def test_a_new_event_is_not_cut_with_everyone_on_zero_not_even_early(early):
    tournament, organiser = _event()
    error = _refusal(tournament, organiser, early=early)
    assert error.code == "knockout_no_swiss_played"
    assert error.status_code == 409
    assert "Monrad-runde" in error.message_da
    assert "Swiss round" in error.message_en


def test_before_the_last_swiss_round_the_cut_needs_the_early_choice():
    tournament, organiser = _event()
    _closed_round(tournament, organiser)
    error = _refusal(tournament, organiser)
    assert error.code == "knockout_swiss_unfinished"
    assert error.extra == {"closed": 1, "planned": 3}
    assert error.message_en.startswith("The Swiss rounds are not done: 1 of 3 are played")
    assert error.message_da.startswith("Monrad-runderne er ikke færdige: 1 af 3 er spillet")

    round_ = knockout_create(tournament=tournament, actor=organiser, early=True, cut="seed")
    assert round_.kind == Round.Kind.KNOCKOUT
    audit = AuditEntry.objects.get(action="knockout_create")
    assert (audit.data["early"], audit.data["swiss_closed"]) == (True, 1)


def test_a_swiss_round_in_play_or_unclosed_stops_the_cut_early_or_not():
    tournament, organiser = _event(swiss_rounds=1)
    pair_and_play(tournament, organiser)  # every result in, the round not closed
    for early in (False, True):
        error = _refusal(tournament, organiser, early=early)
        assert error.code == "knockout_swiss_round_open"
        assert "Runde 1 er ikke lukket endnu" in error.message_da


def test_once_the_planned_swiss_rounds_are_closed_the_cut_is_due():
    tournament, organiser = _event(swiss_rounds=2)
    _closed_round(tournament, organiser)
    _closed_round(tournament, organiser)
    readiness = knockout_readiness(tournament=tournament)
    assert (readiness.swiss_done, readiness.cut_allowed, readiness.early_possible) == (
        True,
        True,
        False,
    )
    round_ = knockout_create(tournament=tournament, actor=organiser, cut="seed")
    assert AuditEntry.objects.get(action="knockout_create").data["early"] is False
    assert round_.games.count() == 2


def test_a_knockout_only_event_cuts_by_seed_at_once():
    tournament, organiser = _event(swiss_rounds=0)
    assert knockout_readiness(tournament=tournament).cut_allowed
    assert knockout_create(tournament=tournament, actor=organiser, source="seeds").games.count()


def test_the_early_cut_says_in_words_what_it_does():
    tournament, organiser = _event(swiss_rounds=5)
    _closed_round(tournament, organiser)
    _closed_round(tournament, organiser)
    readiness = knockout_readiness(tournament=tournament)
    assert readiness.early_possible and not readiness.cut_allowed
    assert readiness.early_da == (
        "Skær nu efter runde 2 af 5: top 4 efter stillingen nu går videre, "
        "og de sidste 3 Monrad-runder spilles ikke."
    )
    assert readiness.early_en == (
        "Cut now after round 2 of 5: the top 4 of the standings now go through, "
        "and the last 3 Swiss rounds are not played."
    )


def test_a_draft_swiss_round_counts_as_open():
    tournament, organiser = _event(swiss_rounds=2)
    _closed_round(tournament, organiser)
    draft = round_pair(tournament=tournament, actor=organiser)
    readiness = knockout_readiness(tournament=tournament)
    assert readiness.open_round == draft.number
    assert not readiness.early_possible and not readiness.cut_allowed
