"""The clock API: public read, judge-only writes with bilingual errors."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone, translation

from games.models import GameClock
from games.services.clock import clock_start
from tests.factories import GameFactory, TournamentFactory, UserFactory, judge_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    game = GameFactory()
    clock_start(game=game, at=timezone.now() - datetime.timedelta(minutes=10))
    return game


def url(game, action=""):
    return f"/api/games/{game.pk}/clock/{action}"


def test_anyone_can_read_the_clock(client, game):
    data = client.get(url(game)).json()
    assert data["status"] == "running"
    assert data["elapsed_s"] == pytest.approx(600, abs=5)
    assert data["remaining_s"] == pytest.approx(3000, abs=5)
    with translation.override("da"):
        danish = translation.gettext("Running")
    assert data["status_label"] == danish != "Running"  # Danish by default
    assert set(data) >= {"limit_s", "alert_s", "server_time", "extensions", "paused", "speed"}


def test_reading_an_unknown_game_is_a_bilingual_404(client):
    response = client.get("/api/games/999999/clock/")
    assert response.status_code == 404
    error = response.json()["error"]
    assert error["message_da"] == "Spillet findes ikke." and error["message_en"] == "No such game."


def test_a_judge_pauses_resumes_and_extends(client, game):
    judge_of(game.round.tournament)
    client.login(username="judge", password="pw-for-tests")
    assert (
        client.post(url(game, "pause/"), {"reason": "Kald"}, "application/json").json()["status"]
        == "paused"
    )
    assert client.post(url(game, "resume/")).json()["status"] == "running"
    data = client.post(
        url(game, "extend/"), {"minutes": 5, "reason": "Dommerkald"}, "application/json"
    ).json()
    assert data["limit_s"] == 65 * 60
    assert data["extensions"][0]["reason"] == "Dommerkald"


def test_extension_without_reason_is_refused_and_changes_nothing(client, game):
    judge_of(game.round.tournament)
    client.login(username="judge", password="pw-for-tests")
    response = client.post(url(game, "extend/"), {"minutes": 5}, "application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "clock_reason_required"
    assert "begrundelse" in response.json()["error"]["message"]
    assert GameClock.objects.get(game=game).extension_minutes == 0


@pytest.mark.parametrize("body", ['["minutes", 5]', "{not json", '"x"'])
def test_malformed_bodies_are_refused(client, game, body):
    judge_of(game.round.tournament)
    client.login(username="judge", password="pw-for-tests")
    response = client.post(url(game, "extend/"), body, content_type="application/json")
    assert response.status_code == 400
    assert GameClock.objects.get(game=game).extension_minutes == 0


def test_writes_are_refused_to_anonymous_players_and_other_judges(client, game):
    judge_of(TournamentFactory(), "elsewhere")
    UserFactory(username="player")
    for username in (None, "player", "elsewhere"):
        client.logout()
        if username:
            client.login(username=username, password="pw-for-tests")
        for action, body in (("pause/", {}), ("extend/", {"minutes": 5, "reason": "x"})):
            response = client.post(url(game, action), body, "application/json")
            assert response.status_code == 403
    clock = GameClock.objects.get(game=game)
    assert clock.paused_at is None and clock.extension_minutes == 0


def test_writes_need_csrf(game):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(judge_of(game.round.tournament))
    response = client.post(url(game, "pause/"), {}, "application/json")
    assert response.status_code == 403
    assert GameClock.objects.get(game=game).paused_at is None
