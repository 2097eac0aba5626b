"""A knockout cut inside a shared rank: shown with its choices, never decided silently."""

from __future__ import annotations

import pytest

from competition.selectors_knockout import knockout_cut
from competition.services.knockout import bracket_for_tournament, knockout_create
from core.errors import ApplicationError
from games.services.results import game_result_record
from tests.competition.helpers import play, tied_at_the_cut
from tournament.models import AuditEntry, Round

pytestmark = pytest.mark.django_db


def first_round_starts(tournament):
    first = bracket_for_tournament(tournament=tournament, include_drafts=True)[0]
    return sorted(p.start_number for m in first.matches for p in (m.pair_a, m.pair_b) if p)


def test_the_tie_at_the_cut_and_each_choice_are_laid_out():
    tournament, _, _ = tied_at_the_cut()
    tie = knockout_cut(tournament=tournament)
    assert (tie.rank, tie.places) == (4, 1)
    assert [p.start_number for p in tie.pairs] == [4, 5]
    tiebreak, seed, playoff = (tie.options[k] for k in ("tiebreak", "seed", "playoff"))
    # The tiebreaks the event does not use decide it: #5 has the better locked-pawn difference.
    assert tiebreak.available and [p.start_number for p in tiebreak.qualified] == [5]
    assert "Forskel i låste brikker" in tiebreak.note_da and "#5" in tiebreak.note_da
    assert seed.available and [p.start_number for p in seed.qualified] == [4]
    assert "seedet nr. 4" in seed.note_da
    assert playoff.available and "#4" in playoff.note_en and "#5" in playoff.note_en


def test_a_bracket_inside_a_tie_is_refused_without_a_choice_and_nothing_is_made():
    tournament, organiser, _ = tied_at_the_cut()
    with pytest.raises(ApplicationError) as err:
        knockout_create(tournament=tournament, actor=organiser)
    assert err.value.code == "knockout_cut_tie" and err.value.status_code == 409
    assert err.value.extra["pairs"] == [4, 5] and err.value.extra["choices"] == [
        "tiebreak", "seed", "playoff"
    ]  # fmt: skip
    assert "4.-pladsen deles af #4" in err.value.message_da
    # Each language names the choices in its own words (tournament's catalogue).
    assert err.value.message_en.endswith("decide it: tiebreak, seed, playoff.")
    assert err.value.message_da.endswith("afgøres: næste tiebreak, seedningen, omspil.")
    assert not tournament.rounds.filter(kind=Round.Kind.KNOCKOUT).exists()


@pytest.mark.parametrize(("cut", "through", "word"), [("tiebreak", 5, "næste tiebreak"),
                                                      ("seed", 4, "seedningen")])  # fmt: skip
def test_the_organisers_choice_decides_who_goes_through_and_is_recorded(cut, through, word):
    tournament, organiser, _ = tied_at_the_cut()
    round_ = knockout_create(tournament=tournament, actor=organiser, cut=cut)
    assert first_round_starts(tournament) == sorted([1, 2, 3, through])
    warning = next(w for w in round_.warnings if w["code"] == "knockout_cut")
    assert f"afgjort ved {word}: #{through} " in warning["da"]
    audit = AuditEntry.objects.get(action="knockout_create")
    assert audit.data["cut"] == cut and audit.data["tied"] == [4, 5]


def test_a_playoff_round_decides_the_cut_and_then_the_bracket_follows():
    tournament, organiser, pairs = tied_at_the_cut()
    playoff = knockout_create(tournament=tournament, actor=organiser, cut="playoff")
    assert playoff.kind == Round.Kind.PLAYOFF and playoff.status == Round.Status.DRAFT
    game = playoff.games.get()
    assert {game.pair_yb.start_number, game.pair_rg.start_number} == {4, 5}
    assert "vinderen går videre" in playoff.explanation[str(game.table_number)]["da"]
    assert not tournament.rounds.filter(kind=Round.Kind.KNOCKOUT).exists()
    # Not before it is played ...
    with pytest.raises(ApplicationError) as err:
        knockout_create(tournament=tournament, actor=organiser)
    assert err.value.code == "round_not_complete"
    # ... then its winner goes through with no further choice.
    play(playoff, organiser, winner_of=lambda g: "YB" if g.pair_yb.start_number == 5 else "RG")
    assert knockout_cut(tournament=tournament).decided_by_playoff == [pairs[5]]
    bracket = knockout_create(tournament=tournament, actor=organiser)
    assert first_round_starts(tournament) == [1, 2, 3, 5]
    assert "afgjort ved omspillet: #5" in bracket.warnings[-1]["da"]
    # The playoff game counts in no standings and can no longer change.
    with pytest.raises(ApplicationError) as err:
        game_result_record(game=game, actor=organiser, winner="RG" if game.winner == "YB" else "YB")
    assert err.value.code == "knockout_moved_on"


def test_when_every_tiebreak_is_used_the_next_tiebreak_is_not_offered():
    tournament, organiser, _ = tied_at_the_cut(
        tiebreaks=("buchholz", "wins", "locked_diff", "distance_diff", "head_to_head"),
        results={4: ((40, 3), (10, 5)), 5: ((40, 3), (10, 5)), 6: ((90, 2), (10, 5))},
    )
    tie = knockout_cut(tournament=tournament)
    assert [p.start_number for p in tie.pairs] == [4, 5]
    assert not tie.options["tiebreak"].available
    assert "bruger allerede alle tiebreaks" in tie.options["tiebreak"].note_da
    with pytest.raises(ApplicationError) as err:
        knockout_create(tournament=tournament, actor=organiser, cut="tiebreak")
    assert err.value.code == "knockout_cut_tie" and "tiebreak" not in err.value.extra["choices"]


def test_three_pairs_for_one_place_cannot_be_paired_off_in_a_playoff():
    tournament, _, _ = tied_at_the_cut(
        results={4: ((40, 3), (10, 5)), 5: ((50, 3), (20, 5)), 6: ((60, 3), (30, 5))}
    )
    tie = knockout_cut(tournament=tournament)
    assert [p.start_number for p in tie.pairs] == [4, 5, 6] and tie.places == 1
    assert not tie.options["playoff"].available
    assert "3 par til 1 plads(er)" in tie.options["playoff"].note_da


def test_a_clean_cut_needs_no_choice():
    tournament, organiser, _ = tied_at_the_cut(
        results={4: ((40, 3), (10, 5)), 5: ((70, 4), (20, 5)), 6: ((90, 5), (10, 5))}
    )
    assert knockout_cut(tournament=tournament) is None
    round_ = knockout_create(tournament=tournament, actor=organiser)
    assert first_round_starts(tournament) == [1, 2, 3, 4]
    assert not [w for w in round_.warnings if w["code"] == "knockout_cut"]
