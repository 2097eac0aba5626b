"""Recording, correcting and clearing game results."""

from __future__ import annotations

import pytest

from core.errors import ApplicationError, PermissionDenied
from games.models import Game
from games.services.results import game_result_clear, game_result_record
from tests.factories import GameFactory, RoundFactory, TournamentFactory, judge_of, organiser_of
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
        ({"winner": "YB", "locked_rg": 8}, "W1"),
        ({"winner": "YB", "locked_yb": 6}, "W1"),
        ({"winner": "YB", "distance_yb": 12}, "W1"),
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


def test_a_duo_side_locks_at_most_its_six_pawns(organiser):
    """docs/rulesets/duo.md S2: a DUO player has six pawns, a pair eight; the field's
    own check (0-8, games.validators) cannot know which, the service does."""
    duo = TournamentFactory(ruleset="duo")
    game = GameFactory(round=RoundFactory(tournament=duo, status=Round.Status.IN_PROGRESS))
    with pytest.raises(ApplicationError) as err:
        game_result_record(game=game, actor=organiser_of(duo), winner="YB", locked_yb=7)
    assert err.value.code == "result_value_invalid" and "6" in err.value.message_en
    game.refresh_from_db()
    assert game.winner == ""


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


# --- a time-out result agrees with W3 or carries a judge's reason -------------------


def test_a_time_out_won_with_more_distance_left_is_refused_and_changes_nothing(game, organiser):
    version = Tournament.objects.get(pk=game.round.tournament_id).data_version
    with pytest.raises(ApplicationError) as err:
        game_result_record(
            game=game, actor=organiser, winner="YB", timed_out=True, distance_yb=100,
            distance_rg=50,
        )  # fmt: skip
    assert err.value.code == "W3" and err.value.extra["adjudicated_winner"] == "RG"
    assert "W3 gives the game to Red/Green (RG): less distance left (50 against 100 steps)" in (
        err.value.message_en
    )
    assert "giver W3 spillet til Rød/Grøn (RG): kortere vej tilbage (50 mod 100 felter)" in (
        err.value.message_da
    )
    game.refresh_from_db()
    assert game.winner == "" and game.distance_yb is None and not AuditEntry.objects.exists()
    assert Tournament.objects.get(pk=game.round.tournament_id).data_version == version


def test_a_judges_reason_lets_the_result_stand_and_is_stored_and_audited(game, organiser):
    game_result_record(
        game=game, actor=organiser, winner="YB", timed_out=True, distance_yb=100, distance_rg=50,
        override_reason="Rød/Grøn spillede efter tidens udløb",
    )  # fmt: skip
    game.refresh_from_db()
    assert game.winner == "YB" and game.result_override == "Rød/Grøn spillede efter tidens udløb"
    entry = AuditEntry.objects.get(action="game_result_record")
    assert entry.data["after"]["result_override"] == "Rød/Grøn spillede efter tidens udløb"


def test_a_reason_is_not_stored_when_the_result_agrees_with_w3(game, organiser):
    game_result_record(
        game=game, actor=organiser, winner="RG", timed_out=True, distance_yb=100, distance_rg=50,
        override_reason="unødvendig",
    )  # fmt: skip
    game.refresh_from_db()
    assert game.winner == "RG" and game.result_override == ""


def test_level_pairs_need_the_judges_reason_whoever_wins(game, organiser):
    with pytest.raises(ApplicationError) as err:
        game_result_record(
            game=game, actor=organiser, winner="RG", timed_out=True, distance_yb=80,
            distance_rg=80,
        )  # fmt: skip
    assert err.value.code == "W3"
    assert "parrene lige (80 felter tilbage hver)" in err.value.message_da
    game_result_record(
        game=game, actor=organiser, winner="RG", timed_out=True, distance_yb=80, distance_rg=80,
        override_reason="Lodtrækning",
    )  # fmt: skip
    game.refresh_from_db()
    assert game.result_override == "Lodtrækning"


def test_locked_pawns_first_when_the_event_says_so(game, organiser):
    tournament = game.round.tournament
    tournament.adjudication = Tournament.Adjudication.LOCKED_THEN_DISTANCE
    tournament.save()
    game.refresh_from_db()
    # More locked pawns wins even with more distance left ...
    game_result_record(
        game=game, actor=organiser, winner="YB", timed_out=True, locked_yb=4, locked_rg=2,
        distance_yb=120, distance_rg=90,
    )  # fmt: skip
    # ... and the other way round needs a reason.
    with pytest.raises(ApplicationError) as err:
        game_result_record(
            game=game, actor=organiser, winner="RG", timed_out=True, locked_yb=4, locked_rg=2,
            distance_yb=120, distance_rg=90,
        )  # fmt: skip
    assert "more locked pawns (4 against 2)" in err.value.message_en


def test_without_numbers_the_move_log_decides(game, organiser, record):
    from games.selectors.adjudication import adjudication_proposal
    from games.services.move_log import move_submit

    for i, text in enumerate(record["moves"][:60]):
        move_submit(game=game, text=text, client_id=f"timeout-{i:04d}", expected_seq=i)
    proposal = adjudication_proposal(game=game)
    assert proposal.winner in ("YB", "RG")
    loser = "RG" if proposal.winner == "YB" else "YB"
    with pytest.raises(ApplicationError) as err:
        game_result_record(game=game, actor=organiser, winner=loser, timed_out=True)
    assert err.value.code == "W3" and "from the table's move log" in err.value.message_en
    game_result_record(game=game, actor=organiser, winner=proposal.winner, timed_out=True)


def test_without_numbers_or_log_nothing_can_be_checked(game, organiser):
    game_result_record(game=game, actor=organiser, winner="YB", timed_out=True)
    game.refresh_from_db()
    assert game.winner == "YB" and game.result_override == ""


def test_the_numbers_rule_agrees_with_the_engines_adjudication():
    """``adjudication_winner`` applies W3 to numbers as ``adjudicate`` does to positions."""
    import dataclasses

    from games.engine import DM2023, adjudicate, replay, selfplay_game
    from games.selectors.adjudication import adjudication_winner

    for seed in range(12):
        record = selfplay_game(seed, first_dealer="Y")
        for cut in (40, 90, 150):
            position = replay({**record, "moves": record["moves"][:cut]}).position
            for order in ("distance", "locked_then_distance"):
                proposal = adjudicate(position, dataclasses.replace(DM2023, adjudication=order))
                teams = proposal["teams"]
                winner, _, _ = adjudication_winner(
                    order,
                    {t: teams[t]["locked"] for t in teams},
                    {t: teams[t]["distance"] for t in teams},
                )
                assert winner == proposal["winner"], (seed, cut, order)


def test_the_organisers_form_asks_for_the_reason_and_shows_it(client, game, organiser):
    from django.urls import reverse

    client.force_login(organiser)
    url = reverse("tournament:organiser_game_result", args=[game.round.tournament.slug, game.pk])
    prefix = f"g{game.pk}-"
    form = {prefix + "winner": "YB", prefix + "timed_out": "on", prefix + "distance_yb": "100",
            prefix + "distance_rg": "50"}  # fmt: skip
    refused = client.post(url, form)
    assert refused.status_code == 400
    assert "giver W3 spillet til Rød/Grøn" in refused.content.decode()
    game.refresh_from_db()
    assert game.winner == ""
    accepted = client.post(url, {**form, prefix + "override_reason": "Spillede efter tid"})
    assert accepted.status_code == 302
    page = client.get(
        reverse("tournament:organiser_round", args=[game.round.tournament.slug, game.round.number])
    ).content.decode()
    assert "Afgjort imod afgørelsen efter W3: Spillede efter tid" in page


def test_the_results_api_refuses_a_time_out_against_w3_and_takes_the_reason(game, organiser):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(organiser)
    body = {"winner": "YB", "timed_out": True, "distance_yb": 100, "distance_rg": 50}
    refused = api.post(f"/api/games/{game.pk}/result/", body, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "W3"
    assert refused.json()["error"]["message_da"].startswith("Stoppet ved tidsgrænsen")
    accepted = api.post(
        f"/api/games/{game.pk}/result/", {**body, "override_reason": "Dommerens skøn"},
        format="json",
    )  # fmt: skip
    assert accepted.status_code == 200 and accepted.json()["result_override"] == "Dommerens skøn"
