"""A table's changes are pushed to its viewers and the hall after the commit, never before."""

from __future__ import annotations

import pytest

from core.errors import ApplicationError
from core.push import broker
from games.services.clock import clock_start
from games.services.move_log import move_submit, move_take_back
from judging.services.freshness import judging_changed
from tournament.services.audit import tournament_data_changed

pytestmark = pytest.mark.django_db


@pytest.fixture
def pushed(settings, monkeypatch):
    """The (channel, kind) of every publish, with push on (Redis itself not needed)."""
    settings.REDIS_URL = "redis://push.invalid/0"
    calls: list[tuple[str, str]] = []

    def publish_many(events):
        calls.extend(events)
        return [None] * len(events)

    monkeypatch.setattr(broker, "publish_many", publish_many)
    return calls


def test_a_move_is_pushed_to_the_table_and_the_hall_once_it_commits(
    game, record, pushed, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        move_submit(game=game, text=record["moves"][0], client_id="client-000000", expected_seq=0)
        assert pushed == []  # not before the commit
    assert len(callbacks) >= 2
    tournament_id = game.round.tournament_id
    assert pushed == [(f"table:{game.pk}", "move"), (f"event:{tournament_id}", "tables")]


def test_a_refused_move_pushes_nothing(game, pushed, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(ApplicationError):
        move_submit(game=game, text="nonsense", client_id="client-000000", expected_seq=0)
    assert (f"table:{game.pk}", "move") not in pushed


def test_a_take_back_is_pushed(game, record, pushed, django_capture_on_commit_callbacks):
    move_submit(game=game, text=record["moves"][0], client_id="client-000000", expected_seq=0)
    pushed.clear()
    with django_capture_on_commit_callbacks(execute=True):
        move_take_back(game=game, client_id="client-000000", seq=1)
    assert (f"table:{game.pk}", "move") in pushed


def test_a_clock_change_is_pushed(game, pushed, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        clock_start(game=game)
    assert (f"table:{game.pk}", "clock") in pushed
    assert (f"judging:{game.round.tournament_id}", "judging") in pushed


def test_public_pages_and_judges_hear_their_versions(
    game, pushed, django_capture_on_commit_callbacks
):
    tournament = game.round.tournament
    with django_capture_on_commit_callbacks(execute=True):
        tournament_data_changed(tournament=tournament)
        judging_changed(tournament_id=tournament.pk)
    assert pushed == [
        (f"event:{tournament.pk}", "pages"),
        (f"judging:{tournament.pk}", "judging"),
        (f"event:{tournament.pk}", "tables"),
    ]


def test_without_redis_nothing_is_published(game, record, settings, monkeypatch):
    settings.REDIS_URL = ""
    monkeypatch.setattr(broker, "_publisher", lambda: pytest.fail("no Redis to publish to"))
    move_submit(game=game, text=record["moves"][0], client_id="client-000000", expected_seq=0)
    assert broker.publish("table:1", "move") is None
