"""A singles event (ruleset ``duo``, docs/rulesets/duo.md S1): entrants are players.

Registration by hand and from CSV, the refusals that keep an event all singles
or all pairs, and a whole event: three Swiss rounds with an odd field (byes),
standings, a knockout of four with a third-place game, first dealers at Y or R.
"""

from __future__ import annotations

import pytest

from competition.pairs_csv import pairs_csv_read
from competition.placings import final_results
from competition.selectors import standings_for_tournament
from competition.services.knockout import knockout_advance, knockout_create
from competition.services.pairing import round_close, round_pair
from core.errors import ApplicationError
from tests.competition.helpers import play
from tests.factories import TournamentFactory, organiser_of
from tournament.models import Bye, Pair, Round
from tournament.services.registration import (
    pair_check_in,
    pair_register,
    pair_update,
    pairs_import_csv,
    tournament_update,
)

pytestmark = pytest.mark.django_db

NAMES = ["Anne Holm", "Bo Dahl", "Carl Juhl", "Dorte Friis", "Eva Lund"]


@pytest.fixture
def singles():
    tournament = TournamentFactory(
        ruleset="duo", swiss_rounds=3, knockout_size=4, third_place_game=True
    )
    return tournament, organiser_of(tournament)


def register_all(tournament, organiser, names=NAMES):
    return [
        pair_register(tournament=tournament, actor=organiser, player_1=name, check_in=True)
        for name in names
    ]


def test_a_singles_entrant_is_one_player(singles):
    tournament, organiser = singles
    entrant = pair_register(tournament=tournament, actor=organiser, player_1="Anne Holm")
    entrant = Pair.objects.select_related("player_1", "player_2").get(pk=entrant.pk)
    assert entrant.player_2 is None
    assert [p.name for p in entrant.players] == ["Anne Holm"]
    assert entrant.display_name == entrant.player_names == "Anne Holm"
    assert entrant.player_1.person is not None  # rated and seasoned as a person


def test_a_singles_event_refuses_a_second_player_and_a_pairs_event_needs_one(singles):
    tournament, organiser = singles
    with pytest.raises(ApplicationError) as err:
        pair_register(tournament=tournament, actor=organiser, player_1="Anne", player_2="Bo")
    assert err.value.code == "singles_one_player"
    assert err.value.message_en != err.value.message_da
    pairs_event = TournamentFactory(ruleset="dm2023")
    with pytest.raises(ApplicationError) as err:
        pair_register(tournament=pairs_event, actor=organiser_of(pairs_event), player_1="Anne")
    assert err.value.code == "field_required"
    assert not Pair.objects.exists()


def test_a_player_cannot_enter_twice_and_can_be_renamed(singles):
    tournament, organiser = singles
    entrant = pair_register(tournament=tournament, actor=organiser, player_1="Anne Holm")
    with pytest.raises(ApplicationError) as err:
        pair_register(tournament=tournament, actor=organiser, player_1="anne holm")
    assert err.value.code == "pair_duplicate"
    pair_update(pair=entrant, actor=organiser, player_1="Anne Holm-Berg")
    entrant.refresh_from_db()
    assert entrant.player_1.name == "Anne Holm-Berg" and entrant.player_2 is None


def test_changing_between_singles_and_pairs_is_refused_once_entrants_exist(singles):
    tournament, organiser = singles
    tournament_update(tournament=tournament, actor=organiser, ruleset="dm2023")  # no entrants
    tournament_update(tournament=tournament, actor=organiser, ruleset="duo")
    pair_register(tournament=tournament, actor=organiser, player_1="Anne Holm")
    with pytest.raises(ApplicationError) as err:
        tournament_update(tournament=tournament, actor=organiser, ruleset="fr")
    assert err.value.code == "ruleset_entrants_registered"
    assert "singles" in err.value.message_en and "single" in err.value.message_da
    tournament.refresh_from_db()
    assert tournament.ruleset == "duo"
    pairs_event = TournamentFactory(ruleset="dm2023")
    pairs_organiser = organiser_of(pairs_event)
    pair_register(tournament=pairs_event, actor=pairs_organiser, player_1="A", player_2="B")
    tournament_update(tournament=pairs_event, actor=pairs_organiser, ruleset="rulebook")
    with pytest.raises(ApplicationError) as err:
        tournament_update(tournament=pairs_event, actor=pairs_organiser, ruleset="duo")
    assert err.value.code == "ruleset_entrants_registered"


def _import_csv(tournament, organiser, text):
    read = pairs_csv_read(text, singles=tournament.is_singles)
    return pairs_import_csv(
        tournament=tournament, actor=organiser, rows=read.rows, refused=read.refused
    )


def test_a_singles_csv_has_one_player_per_row(singles):
    tournament, organiser = singles
    report = _import_csv(
        tournament, organiser, "\ufeffplayer;club;seed\nAnne Holm;Odense;1\nBo Dahl;;\n"
    )
    assert report.ok
    assert [(p.player_1.name, p.player_2, p.club, p.seed) for p in report.created] == [
        ("Anne Holm", None, "Odense", 1),
        ("Bo Dahl", None, "", None),
    ]
    # player_1 is read as player; a second player's column is refused whole.
    assert _import_csv(tournament, organiser, "player_1\nCarl Juhl\n").ok
    bad = _import_csv(tournament, organiser, "player;player_2\nDorte;Eva\n")
    assert not bad.ok and bad.errors[0].line == 1
    assert "one player per row" in bad.errors[0].message_en
    assert Pair.objects.filter(tournament=tournament).count() == 3


def test_three_swiss_rounds_with_an_odd_field_then_a_knockout_of_four(singles):
    tournament, organiser = singles
    entrants = register_all(tournament, organiser)
    played: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        round_ = round_pair(tournament=tournament, actor=organiser)
        games = list(round_.games.all())
        assert len(games) == 2 and round_.byes.count() == 1
        # Two seats at a DUO table: the first dealer is Y or R (duo.md S1).
        assert {g.first_dealer for g in games} <= {"Y", "R"}
        meetings = {frozenset((g.pair_yb_id, g.pair_rg_id)) for g in games}
        assert not meetings & played, f"rematch in round {number}"
        played |= meetings
        round_close(round=play(round_, organiser), actor=organiser)
    byes = list(Bye.objects.filter(round__tournament=tournament).values_list("pair_id", flat=True))
    assert len(byes) == len(set(byes)) == 3  # three different players sat out
    standings = standings_for_tournament(tournament=tournament)
    assert sorted(r.pair_id for r in standings) == sorted(p.pk for p in entrants)
    assert sum(r.games_played for r in standings) == 12 and sum(r.byes for r in standings) == 3
    assert {r.pair.display_name for r in standings} == set(NAMES)

    # Random results may leave a tie at the cut: the seeds decide it (never silently).
    round_ = knockout_create(tournament=tournament, actor=organiser, cut="seed")
    while round_ is not None:
        assert {g.first_dealer for g in round_.games.all()} <= {"Y", "R"}
        play(round_, organiser)
        round_ = knockout_advance(tournament=tournament, actor=organiser)
    kinds = list(tournament.rounds.values_list("kind", flat=True))
    assert kinds.count(Round.Kind.KNOCKOUT) >= 2
    podium = final_results(tournament=tournament)
    assert podium.finished
    assert [p.place for p in podium.places[:4]] == [1, 2, 3, 4]
    assert all(p.pair.player_2 is None for p in podium.places)


def test_a_late_single_player_is_checked_in_and_paired(singles):
    tournament, organiser = singles
    register_all(tournament, organiser, NAMES[:4])
    play(round_pair(tournament=tournament, actor=organiser), organiser)
    late = pair_register(tournament=tournament, actor=organiser, player_1="Eva Lund")
    pair_check_in(pair=late, actor=organiser)
    second = round_pair(tournament=tournament, actor=organiser)
    assert late.first_round == 2
    in_round = {g.pair_yb_id for g in second.games.all()} | {
        g.pair_rg_id for g in second.games.all()
    }
    assert late.pk in in_round or second.byes.filter(pair=late).exists()
