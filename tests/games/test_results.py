"""Recording, correcting and clearing game results."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services.results import game_result_clear, game_result_record
from tests.factories import GameFactory, RoundFactory, TournamentFactory, judge_of, organiser_of
from tournament.errors import ApplicationError, PermissionDenied
from tournament.models import AuditEntry, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    tournament = TournamentFactory()
    return GameFactory(round=RoundFactory(tournament=tournament, status=Round.Status.IN_PROGRESS))


@pytest.fixture
def organiser(game):
    return organiser_of(game.round.tournament)


def test_record_a_typed_result(game, organiser):
    version = game.round.tournament.data_version
    game_result_record(
        game=game, actor=organiser, winner="RG", locked_yb=5, locked_rg=8, distance_yb=70,
        distance_rg=0,
    )  # fmt: skip
    game.refresh_from_db()
    assert (game.winner, game.locked_yb, game.distance_yb) == ("RG", 5, 70)
    assert game.status == Game.Status.FINISHED and game.result_source == "typed"
    assert game.finished_at and game.result_recorded_at
    assert Tournament.objects.get(pk=game.round.tournament_id).data_version == version + 1
    assert AuditEntry.objects.get().action == "game_result_record"


def test_correction_is_audited_with_before_and_after(game, organiser):
    game_result_record(game=game, actor=organiser, winner="YB")
    game_result_record(game=game, actor=organiser, winner="RG", note="wrong sheet")
    entry = AuditEntry.objects.get(action="game_result_correct")
    assert entry.data["before"]["winner"] == "YB" and entry.data["after"]["winner"] == "RG"


def test_same_result_twice_changes_nothing(game, organiser):
    game_result_record(game=game, actor=organiser, winner="YB")
    game_result_record(game=game, actor=organiser, winner="YB")
    assert AuditEntry.objects.count() == 1


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"winner": "XY"}, "result_winner_invalid"),
        ({"winner": "YB", "locked_rg": 8}, "W1"),
        ({"winner": "YB", "locked_yb": 6}, "W1"),
        ({"winner": "YB", "distance_yb": 12}, "W1"),
        ({"winner": "YB", "locked_yb": 9}, "result_value_invalid"),
        ({"winner": "YB", "distance_rg": -1}, "result_value_invalid"),
        ({"winner": "YB", "source": "dice"}, "result_source_invalid"),
    ],
)
def test_bad_results_are_refused_and_change_nothing(game, organiser, kwargs, code):
    with pytest.raises(ApplicationError) as err:
        game_result_record(game=game, actor=organiser, **kwargs)
    assert err.value.code == code
    assert err.value.message_da
    game.refresh_from_db()
    assert game.winner == "" and not AuditEntry.objects.exists()


def test_timed_out_game_may_be_won_without_all_pawns_locked(game, organiser):
    game_result_record(
        game=game, actor=organiser, winner="YB", timed_out=True, locked_yb=6, locked_rg=5,
        distance_yb=30, distance_rg=44,
    )  # fmt: skip
    game.refresh_from_db()
    assert game.timed_out and game.locked_yb == 6


def test_judge_cannot_type_but_can_award(game):
    judge = judge_of(game.round.tournament)
    with pytest.raises(PermissionDenied):
        game_result_record(game=game, actor=judge, winner="YB")
    game_result_record(game=game, actor=judge, winner="YB", source="judge", note="ruling")
    game.refresh_from_db()
    assert game.result_source == "judge"


def test_organiser_of_another_tournament_is_refused(game):
    other = organiser_of(TournamentFactory(), "other")
    with pytest.raises(PermissionDenied):
        game_result_record(game=game, actor=other, winner="YB")


def test_log_source_without_actor(game):
    game_result_record(game=game, actor=None, winner="RG", source="log")
    game.refresh_from_db()
    assert game.winner == "RG" and AuditEntry.objects.get().actor is None


def test_draft_round_refuses_results(organiser, game):
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.DRAFT)
    with pytest.raises(ApplicationError) as err:
        game_result_record(game=game, actor=organiser, winner="YB")
    assert err.value.code == "round_not_published"


def test_closed_round_only_organiser(game, organiser):
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.CLOSED)
    judge = judge_of(game.round.tournament)
    with pytest.raises(PermissionDenied):
        game_result_record(game=game, actor=judge, winner="YB", source="judge")
    game_result_record(game=game, actor=organiser, winner="YB")
    game.refresh_from_db()
    assert game.winner == "YB"


def test_clear_needs_a_reason_and_is_audited(game, organiser):
    game_result_record(game=game, actor=organiser, winner="YB")
    with pytest.raises(ApplicationError) as err:
        game_result_clear(game=game, actor=organiser, reason=" ")
    assert err.value.code == "reason_required"
    game_result_clear(game=game, actor=organiser, reason="typed at the wrong table")
    game.refresh_from_db()
    assert game.winner == "" and game.result_source == "" and game.status == Game.Status.SCHEDULED
    assert AuditEntry.objects.get(action="game_result_clear").data["reason"] == (
        "typed at the wrong table"
    )
    with pytest.raises(ApplicationError):
        game_result_clear(game=game, actor=organiser, reason="again")
