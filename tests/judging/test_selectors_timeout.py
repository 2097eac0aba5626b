"""The proposal for a timed-out game and the one way such a game is decided."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.errors import ApplicationError
from games.models import Game
from games.selectors.adjudication import SideStanding, adjudication_proposal
from games.services.clock import clock_start, clock_time_up
from games.services.results import game_result_record
from judging.models import Ruling
from judging.selectors_timeout import proposal_text, timeout_proposal
from judging.services.rulings import adjudication_decide
from tests.judging.conftest import rule

pytestmark = pytest.mark.django_db


@pytest.fixture
def unlogged(game):
    """A table stopped at the time limit that logged no move (it kept score on paper)."""
    clock_start(game=game)
    clock_time_up(game_id=game.pk)
    game.refresh_from_db()
    return game


def test_a_logged_table_gets_the_engines_proposal_in_words(logged):
    clock_time_up(game_id=logged.pk)
    proposal = timeout_proposal(game=logged)
    engine = adjudication_proposal(game=logged)
    assert proposal.source == "log"
    assert proposal.winner == engine.winner and proposal.teams == engine.teams
    names = {"YB": "Gul/Blå", "RG": "Rød/Grøn", None: "Ingen vinder"}
    assert proposal_text(logged, proposal).startswith(names[proposal.winner])


def test_a_table_that_logged_nothing_has_no_proposal_and_says_so(unlogged):
    proposal = timeout_proposal(game=unlogged)
    assert proposal.source == "none"
    assert proposal.winner is None and proposal.teams is None
    assert proposal_text(unlogged, proposal).startswith("Bordet har ikke logget nogen træk")
    # The engine measured the starting position: every such table "level".
    assert adjudication_proposal(game=unlogged).winner is None


def test_deciding_without_a_proposal_needs_a_reason_and_stores_no_made_up_numbers(unlogged, judge):
    with pytest.raises(ApplicationError) as err:
        adjudication_decide(game=unlogged, actor=judge, winner="RG", reason="")
    assert err.value.code == "reason_required"
    unlogged.refresh_from_db()
    assert unlogged.status == Game.Status.TIME_UP and not unlogged.winner
    adjudication_decide(game=unlogged, actor=judge, winner="RG", reason="Scorearket")
    unlogged.refresh_from_db()
    assert unlogged.winner == "RG" and unlogged.timed_out
    assert unlogged.distance_yb is None and unlogged.locked_rg is None
    ruling = Ruling.objects.get(game=unlogged)
    assert ruling.data["source"] == "none" and ruling.data["override"] is True


def test_a_recorded_time_out_result_proposes_from_its_numbers(unlogged, judge):
    game_result_record(
        game=unlogged, actor=judge, winner="YB", source="judge", timed_out=True,
        locked_yb=2, locked_rg=1, distance_yb=300, distance_rg=350,
    )  # fmt: skip
    unlogged.refresh_from_db()
    proposal = timeout_proposal(game=unlogged)
    assert proposal.source == "result" and proposal.winner == "YB"
    assert proposal.teams["RG"] == SideStanding(distance=350, locked=1)
    assert "300 mod 350" in proposal.reason_da


def test_an_awarded_result_of_a_timed_out_game_takes_the_one_time_out_path(unlogged, judge):
    outcome = rule(
        game=unlogged, actor=judge, kind="result", data={"winner": "YB", "reason": "Papir"}
    )
    assert outcome.ruling.kind == Ruling.Kind.ADJUDICATION
    unlogged.refresh_from_db()
    assert unlogged.result_source == Game.ResultSource.ADJUDICATED and unlogged.timed_out


def test_the_review_page_has_one_decision_form_for_a_timed_out_game(client, logged, judge):
    client.force_login(judge)
    url = reverse("judging:review", args=[logged.round.tournament.slug, logged.pk])
    running = client.get(url).content.decode()
    assert 'id="form-result"' in running and 'id="form-adjudication"' not in running
    assert "Træf en afgørelse" in running
    clock_time_up(game_id=logged.pk)
    stopped = client.get(url).content.decode()
    assert stopped.count('value="adjudication"') == 1 and 'id="form-result"' not in stopped
    winner = timeout_proposal(game=logged).winner
    if winner:
        assert f'<option value="{winner}" selected>' in stopped
    assert "Motoren foreslår" in stopped and "— —" not in stopped


def test_every_proposal_answers_in_the_serializers_field_order(logged):
    from judging.answers import AdjudicationAnswer
    from tests.factories import GameFactory

    clock_time_up(game_id=logged.pk)
    order = list(AdjudicationAnswer().fields)
    measured = timeout_proposal(game=logged).to_json()
    assert measured["source"] == "log" and list(measured) == order
    empty = GameFactory()
    clock_start(game=empty)
    clock_time_up(game_id=empty.pk)
    empty.refresh_from_db()
    nothing = timeout_proposal(game=empty).to_json()
    assert nothing["source"] == "none" and list(nothing) == order[: len(nothing)]
    assert nothing["teams"] is None and "position" not in nothing
