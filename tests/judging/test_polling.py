"""Judges' and tables' polls: one shared answer, renewed at once by what a judge acts on, and 304.

Every invalidation test stretches the shared answers' max age to an hour, so
the only way the second poll can show the change is the judging version bump
of the service under test (``judging.services.freshness``).
"""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from competition.services.pairing import round_close, round_start
from games.models import Game, GameClock
from games.selectors.clock import clock_state
from games.services import clock as clock_service
from games.services.clock import (
    clock_extend,
    clock_pause,
    clock_resume,
    clock_start,
    clock_stop,
)
from games.services.judges import JudgeAtEvent, JudgeAtGame
from judging import selectors_polling
from judging.models import Alert
from judging.selectors import judge_dashboard
from judging.selectors_polling import dashboard_etag
from judging.services.alerts import alert_acknowledge, alerts_raise_due
from judging.services.calls import judge_call_close, judge_call_create, judge_call_take
from judging.services.freshness import judging_changed, judging_version
from judging.services.rulings import ruling_warning
from tests.factories import GameFactory, PairFactory, RoundFactory, judge_of, organiser_of
from tournament.models import Round

pytestmark = pytest.mark.django_db

HOUR = 3600.0


def ago(minutes: float) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(minutes=minutes)


@pytest.fixture(autouse=True)
def _no_broker(monkeypatch):
    monkeypatch.setattr(clock_service, "_schedule_marks", lambda clocks: None)


@pytest.fixture
def long_max_age(monkeypatch):
    for name in ("DASHBOARD_MAX_AGE_S", "CALLS_MAX_AGE_S", "TABLE_MAX_AGE_S"):
        monkeypatch.setattr(selectors_polling, name, HOUR)


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run the block's on-commit callbacks (the version bumps), as a real commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def judge_client(judge):
    client = Client()
    client.force_login(judge)
    return client


def _dashboard(client, tournament, **headers):
    return client.get(f"/api/tournaments/{tournament.slug}/judge/dashboard/", **headers)


def _calls(client, tournament, **headers):
    return client.get(f"/api/tournaments/{tournament.slug}/judge/calls/", **headers)


def _table(client, token, **headers):
    return client.get(f"/api/table/{token}/judge/", **headers)


def _table_of(data, game):
    return next(t for t in data["tables"] if t["game_id"] == game.pk)


# --- the version -------------------------------------------------------------------


def test_the_version_moves_on_commit_and_never_comes_back_after_a_loss(
    tournament, commit, django_capture_on_commit_callbacks
):
    from django.core.cache import cache

    first = judging_version(tournament_id=tournament.pk)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        judging_changed(tournament_id=tournament.pk)
    assert judging_version(tournament_id=tournament.pk) == first  # not before the commit
    callbacks[0]()
    bumped = judging_version(tournament_id=tournament.pk)
    assert bumped == first + 1
    cache.clear()  # Redis restarted without persistence
    assert judging_version(tournament_id=tournament.pk) not in (first, bumped)


def test_a_cache_outage_fails_neither_a_bump_nor_a_poll(
    logged, judge, judge_client, tournament, monkeypatch, commit
):
    from django.core.cache import cache

    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    for method in ("get", "get_many", "set", "add", "incr"):
        monkeypatch.setattr(cache, method, down)
    with commit():
        clock_pause(judge=JudgeAtGame(logged, judge), reason="tvist")
    response = _dashboard(judge_client, tournament)
    assert response.status_code == 200
    assert response.json()["tables"][0]["status"] == "paused"
    assert _calls(judge_client, tournament).status_code == 200


# --- invalidation: each change shows on the very next poll -----------------------------


def test_an_alert_raised_between_two_polls_shows_on_the_next(
    logged, judge_client, tournament, long_max_age, commit
):
    first = _dashboard(judge_client, tournament)
    assert first.json()["alerts"] == []
    # The table's clock passes the 50-minute mark.
    GameClock.objects.filter(game=logged).update(alert_due_at=ago(0.1))
    with commit():
        assert alerts_raise_due() == 1
    again = _dashboard(judge_client, tournament, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert [a["kind"] for a in again.json()["alerts"]] == ["alert"]
    assert again["ETag"] != first["ETag"]


def test_an_acknowledgement_shows_on_the_next_poll(
    logged, judge, judge_client, tournament, long_max_age, commit
):
    GameClock.objects.filter(game=logged).update(alert_due_at=ago(0.1))
    with commit():
        alerts_raise_due()
    assert _dashboard(judge_client, tournament).json()["alerts"][0]["open"] is True
    with commit():
        alert_acknowledge(alert_id=Alert.objects.get().pk, actor=judge)
    alert = _dashboard(judge_client, tournament).json()["alerts"][0]
    assert alert["open"] is False and alert["acknowledged_by"] == judge.username


@pytest.mark.parametrize("action", ["pause", "resume", "extend", "stop"])
def test_a_clock_action_shows_on_the_next_poll(
    action, logged, judge, judge_client, tournament, long_max_age, commit
):
    if action == "resume":
        clock_pause(judge=JudgeAtGame(logged, judge))
    before = _table_of(_dashboard(judge_client, tournament).json(), logged)
    with commit():
        if action == "pause":
            clock_pause(judge=JudgeAtGame(logged, judge), reason="tvist")
        elif action == "resume":
            clock_resume(judge=JudgeAtGame(logged, judge))
        elif action == "extend":
            clock_extend(judge=JudgeAtGame(logged, judge), minutes=5, reason="toiletpause")
        else:
            clock_stop(game=logged)
    after = _table_of(_dashboard(judge_client, tournament).json(), logged)
    expected = {"pause": "paused", "resume": "running", "extend": "running", "stop": "stopped"}
    assert after["status"] == expected[action]
    if action == "extend":
        assert before["clock"]["extensions"] == []
        assert after["clock"]["extensions"][0]["minutes"] == 5


def test_a_clock_start_shows_on_the_next_poll(judge_client, game, tournament, long_max_age, commit):
    assert _table_of(_dashboard(judge_client, tournament).json(), game)["status"] == "not_started"
    with commit():
        clock_start(game=game)
    assert _table_of(_dashboard(judge_client, tournament).json(), game)["status"] == "running"


def test_time_up_at_the_limit_shows_on_the_next_poll(
    logged, judge_client, tournament, long_max_age, commit
):
    # The limit alert's bump: here its alert rows exist already, only the game changes.
    GameClock.objects.filter(game=logged).update(limit_due_at=ago(0.1))
    Alert.objects.create(
        tournament=tournament, game=logged, kind="limit", due_at=ago(0.1),
        raised_at=ago(0.1), mark_minute=60,
    )  # fmt: skip
    assert _table_of(_dashboard(judge_client, tournament).json(), logged)["status"] == "running"
    from judging.services.alerts import alert_raise_if_due

    with commit():
        assert alert_raise_if_due(game_id=logged.pk, kind="limit") is None
    assert Game.objects.get(pk=logged.pk).status == Game.Status.TIME_UP
    assert _table_of(_dashboard(judge_client, tournament).json(), logged)["status"] == "time_up"


@pytest.fixture
def two_rounds(judge):
    first = RoundFactory(status=Round.Status.PUBLISHED, number=1)
    tournament = first.tournament
    judge_of(tournament, judge.username)
    game = GameFactory(round=first, table_number=1)
    return tournament, first, game, organiser_of(tournament)


def test_a_round_start_shows_on_the_next_poll(judge_client, two_rounds, long_max_age, commit):
    tournament, first, game, organiser = two_rounds
    assert _dashboard(judge_client, tournament).json()["tables"][0]["status"] == "not_started"
    with commit():
        round_start(round=first, actor=organiser)
    assert _table_of(_dashboard(judge_client, tournament).json(), game)["status"] == "running"


def test_a_round_closed_shows_on_the_next_poll(judge_client, two_rounds, long_max_age, commit):
    tournament, first, game, organiser = two_rounds
    Round.objects.filter(pk=first.pk).update(status=Round.Status.IN_PROGRESS)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, winner="YB", result_source="judge"
    )
    second = RoundFactory(tournament=tournament, number=2, status=Round.Status.PUBLISHED)
    GameFactory(round=second, table_number=1)
    assert _dashboard(judge_client, tournament).json()["round"] == 1
    # No judging bump here: Tournament.data_version (round services) is in the key.
    with commit():
        round_close(round=first, actor=organiser)
    data = _dashboard(judge_client, tournament).json()
    assert data["round"] == 2 and data["tables"][0]["status"] == "not_started"


def test_calls_opened_taken_and_closed_show_on_the_next_polls(
    logged, judge, judge_client, token, tournament, long_max_age, commit
):
    # Without a pause: the clock's own bumps must not stand in for the calls'.
    tournament.pause_clock_on_call = False
    tournament.save()
    table_client = Client()
    assert _calls(judge_client, tournament).json()["calls"] == []
    assert _table(table_client, token).json()["call"] is None
    with commit():
        call = judge_call_create(game=logged, client_id="call-0001", reason="tvist")
    assert [c["id"] for c in _calls(judge_client, tournament).json()["calls"]] == [call.pk]
    assert _table(table_client, token).json()["call"]["taken_by"] == ""
    with commit():
        judge_call_take(call=call, judge=JudgeAtEvent(call.tournament, judge))
    assert _calls(judge_client, tournament).json()["calls"][0]["taken_by"] == judge.username
    assert _table(table_client, token).json()["call"]["taken_by"] == judge.username
    with commit():
        judge_call_close(call=call, judge=JudgeAtEvent(call.tournament, judge))
    assert _calls(judge_client, tournament).json()["calls"] == []
    assert _table(table_client, token).json()["call"] is None


def test_a_call_that_pauses_the_clock_shows_on_the_dashboard(
    logged, judge_client, tournament, long_max_age, commit, monkeypatch
):
    assert _table_of(_dashboard(judge_client, tournament).json(), logged)["status"] == "running"
    # Only the call's own bump is left: the clock's pause would do it too.
    monkeypatch.setattr(clock_service, "_judging_changed", lambda game: None)
    with commit():
        judge_call_create(game=logged, client_id="call-0001")
    assert _table_of(_dashboard(judge_client, tournament).json(), logged)["status"] == "paused"


def test_a_ruling_shows_at_the_table_on_the_next_poll(
    logged, judge, token, tournament, long_max_age, commit
):
    table_client = Client()
    assert _table(table_client, token).json()["rulings"] == []
    with commit():
        ruling_warning(game=logged, actor=judge, seat="G", rule="P5", reason="Signalerede")
    rulings = _table(table_client, token).json()["rulings"]
    assert [r["kind"] for r in rulings] == ["warning"]


def test_a_ruling_result_shows_on_the_dashboard(
    logged, judge, judge_client, tournament, long_max_age, commit
):
    from judging.services.rulings import ruling_result

    assert _table_of(_dashboard(judge_client, tournament).json(), logged)["status"] == "running"
    with commit():
        ruling_result(game=logged, actor=judge, winner="YB", reason="Opgivet")
    assert _table_of(_dashboard(judge_client, tournament).json(), logged)["status"] == "stopped"


# --- sharing, ETags, 304 ----------------------------------------------------------


def test_one_computation_serves_every_judge(logged, tournament, judge, monkeypatch):
    built = []
    real = selectors_polling.judge_dashboard
    monkeypatch.setattr(
        selectors_polling,
        "judge_dashboard",
        lambda **kw: built.append(1) or real(**kw),
    )
    monkeypatch.setattr(selectors_polling, "DASHBOARD_MAX_AGE_S", HOUR)
    bodies = set()
    for username in ("dommer2", "dommer3", "dommer4"):
        client = Client()
        client.force_login(judge_of(tournament, username))
        bodies.add(_dashboard(client, tournament).content)
    assert len(built) == 1 and len(bodies) == 1


def test_the_shared_answer_is_renewed_after_its_max_age(
    logged, judge_client, tournament, record, monkeypatch
):
    monkeypatch.setattr(selectors_polling, "DASHBOARD_MAX_AGE_S", HOUR)
    first = _dashboard(judge_client, tournament)
    assert _table_of(first.json(), logged)["moves"] == 10
    log_moves_from(logged, record, 10, 12)  # logging a move bumps nothing
    assert _dashboard(judge_client, tournament).content == first.content
    monkeypatch.setattr(selectors_polling, "DASHBOARD_MAX_AGE_S", 0.0)
    fresh = _dashboard(judge_client, tournament, HTTP_IF_NONE_MATCH=first["ETag"])
    assert fresh.status_code == 200
    assert _table_of(fresh.json(), logged)["moves"] == 12


def log_moves_from(game, record, start, stop):
    from games.services.move_log import move_submit

    for i in range(start, stop):
        move_submit(game=game, text=record["moves"][i], client_id=f"more-{i:04d}", expected_seq=i)


def test_dashboard_304_when_only_time_passed(logged, judge_client, tournament, monkeypatch):
    monkeypatch.setattr(selectors_polling, "DASHBOARD_MAX_AGE_S", 0.0)  # recomputed every poll
    first = _dashboard(judge_client, tournament)
    etag = first["ETag"]
    assert etag.startswith('W/"') and first["Cache-Control"] == "no-store"
    served = float(first["X-Server-Time"])  # epoch seconds, as the hall API's
    computed = datetime.datetime.fromisoformat(first.json()["server_time"]).timestamp()
    assert computed - 0.001 <= served <= timezone.now().timestamp() + 0.001  # rounded to ms
    again = _dashboard(judge_client, tournament, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag and again["X-Server-Time"]
    other = _dashboard(judge_client, tournament, HTTP_IF_NONE_MATCH='W/"something-else"')
    assert other.status_code == 200


def test_the_dashboard_tag_ignores_running_seconds_but_not_a_stopped_clock(logged, judge):
    now = timezone.now()
    early = judge_dashboard(tournament=logged.round.tournament, now=now)
    later = judge_dashboard(
        tournament=logged.round.tournament, now=now + datetime.timedelta(seconds=7)
    )
    assert early["tables"][0]["clock"]["remaining_s"] != later["tables"][0]["clock"]["remaining_s"]
    assert dashboard_etag(early, "da") == dashboard_etag(later, "da")
    assert dashboard_etag(early, "da") != dashboard_etag(early, "en")
    clock_pause(judge=JudgeAtGame(logged, judge))
    paused = judge_dashboard(tournament=logged.round.tournament, now=now)
    assert dashboard_etag(paused, "da") != dashboard_etag(early, "da")


def test_calls_and_table_answer_304_until_something_changes(
    logged, judge, judge_client, token, tournament, commit
):
    table_client = Client()
    for get in (
        lambda **h: _calls(judge_client, tournament, **h),
        lambda **h: _table(table_client, token, **h),
    ):
        first = get()
        assert first.status_code == 200 and first["ETag"].startswith('"')
        assert get(HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    calls_tag = _calls(judge_client, tournament)["ETag"]
    table_tag = _table(table_client, token)["ETag"]
    with commit():
        judge_call_create(game=logged, client_id="call-0001")
    assert _calls(judge_client, tournament, HTTP_IF_NONE_MATCH=calls_tag).status_code == 200
    assert _table(table_client, token, HTTP_IF_NONE_MATCH=table_tag).status_code == 200


def test_answers_are_kept_per_language(logged, judge_client, tournament, long_max_age):
    GameClock.objects.filter(game=logged).update(alert_due_at=ago(0.1))
    alerts_raise_due()
    danish = _dashboard(judge_client, tournament)
    judge_client.cookies["django_language"] = "en"  # the language switch's choice
    english = _dashboard(judge_client, tournament)
    assert "grib ind" in danish.json()["alerts"][0]["kind_label"]
    assert "step in" in english.json()["alerts"][0]["kind_label"]
    assert danish["ETag"] != english["ETag"]


def test_permissions_are_checked_before_the_shared_answer(
    logged, judge_client, tournament, other_judge
):
    _dashboard(judge_client, tournament)  # the shared answer exists now
    outsider = Client()
    outsider.force_login(other_judge)
    for response in (_dashboard(outsider, tournament), _calls(outsider, tournament)):
        assert response.status_code == 403
    assert _dashboard(Client(), tournament).status_code in (401, 403)
    assert _table(Client(), "not-a-token").status_code == 403


# --- the cheaper computation gives what the models give ---------------------------------


def test_dashboard_clocks_are_the_clock_api_for_every_state(round_with_every_clock):
    tournament, games, now = round_with_every_clock
    data = judge_dashboard(tournament=tournament, now=now)
    for game in games:
        assert (
            _table_of(data, game)["clock"]
            == clock_state(game=Game.objects.get(pk=game.pk), now=now).to_json()
        ), game.table_number
    assert {t["status"] for t in data["tables"]} == {
        "not_started", "running", "paused", "time_up", "stopped",
    }  # fmt: skip


@pytest.fixture
def round_with_every_clock(judge):
    round_ = RoundFactory(status=Round.Status.IN_PROGRESS)
    tournament = round_.tournament
    named = PairFactory(tournament=tournament, name="Makkerne")
    games = [GameFactory(round=round_, table_number=n) for n in range(1, 6)]
    games[0].pair_yb = named
    games[0].save()
    judge_of(tournament, judge.username)
    clock_start(game=games[1], at=ago(20))
    clock_start(game=games[2], at=ago(30))
    clock_extend(judge=JudgeAtGame(games[2], judge), minutes=3, reason="toiletpause")
    clock_pause(judge=JudgeAtGame(games[2], judge), reason="tvist om kort")
    clock_start(game=games[3], at=ago(70))
    Game.objects.filter(pk=games[3].pk).update(status=Game.Status.TIME_UP)
    clock_start(game=games[4], at=ago(40))
    clock_stop(game=games[4])
    return tournament, games, timezone.now()


def test_pair_names_are_the_pairs_display_names(round_with_every_clock):
    tournament, games, now = round_with_every_clock
    data = judge_dashboard(tournament=tournament, now=now)
    for game in games:
        game = Game.objects.get(pk=game.pk)
        table = _table_of(data, game)
        assert (table["pair_yb"], table["pair_rg"]) == (
            game.pair_yb.display_name,
            game.pair_rg.display_name,
        )
    assert _table_of(data, games[0])["pair_yb"].startswith("Makkerne (")


def test_moves_are_the_last_entrys_number_not_a_count_of_the_rounds_entries(
    logged, tournament, record
):
    from django.db import connection

    log_moves_from(logged, record, 10, 11)
    from games.services.move_log import move_take_back

    move_take_back(game=logged, client_id="more-0010", seq=11)
    statements = []

    def spy(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(spy):
        data = judge_dashboard(tournament=tournament)
    assert data["tables"][0]["moves"] == 10  # the withdrawn entry does not count
    # The dashboard is rebuilt every second: no query counts every entry of the round.
    assert not [sql for sql in statements if "COUNT(" in sql.upper() or "GROUP BY" in sql]


def test_the_page_starts_from_the_shared_answer_and_its_tag(
    logged, judge_client, tournament, long_max_age
):
    import json
    import re

    html = judge_client.get(f"/tournaments/{tournament.slug}/judge/").content.decode()

    def script(name):
        found = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', html)
        return json.loads(found.group(1))

    config, initial = script("judge-config"), script("judge-initial")
    api = _dashboard(judge_client, tournament)
    assert initial == api.json() and config["etag"] == api["ETag"]
    again = _dashboard(judge_client, tournament, HTTP_IF_NONE_MATCH=config["etag"])
    assert again.status_code == 304
    computed = datetime.datetime.fromisoformat(initial["server_time"]).timestamp()
    assert config["server_now"] >= computed - 0.001
