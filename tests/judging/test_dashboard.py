"""The judge dashboard: selector order, no N+1, page and JSON access."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from games.models import Game
from games.services.clock import clock_start, clock_stop
from games.services.judges import JudgeAtGame
from judging.models import Alert
from judging.selectors import judge_dashboard
from judging.services.alerts import alerts_raise_due
from tests.factories import (
    GameFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    judge_of,
    organiser_of,
)

pytestmark = pytest.mark.django_db


def ago(minutes: float) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(minutes=minutes)


@pytest.fixture
def round_():
    return RoundFactory(status="in_progress")


def _tables(round_, *starts):
    games = []
    for number, start in enumerate(starts, 1):
        game = GameFactory(round=round_, table_number=number)
        if start is not None:
            clock_start(game=game, at=ago(start))
        games.append(game)
    return games


def test_tables_are_sorted_by_urgency(round_):
    # 1: 20 min, 2: not started, 3: 55 min (alert), 4: 62 min (time up), 5: finished, 6: 40 min
    games = _tables(round_, 20, None, 55, 62, 30, 40)
    clock_stop(game=games[4])
    Game.objects.filter(pk=games[4].pk).update(status=Game.Status.FINISHED)
    alerts_raise_due()
    data = judge_dashboard(tournament=round_.tournament)
    assert [t["table"] for t in data["tables"]] == [4, 3, 6, 1, 2, 5]
    first = data["tables"][0]
    assert first["status"] == "time_up"
    assert {a["kind"] for a in first["alerts"]} == {"alert", "limit"}
    assert data["tables"][1]["open_alerts"] == 1
    # Limits first; 50-minute alerts without a log rank by elapsed time.
    assert [(a["table"], a["kind"], a["rank"]) for a in data["alerts"]] == [
        (4, "limit", None),
        (4, "alert", 1),
        (3, "alert", 2),
    ]


def test_acknowledged_alerts_sink_below_open_ones(round_):
    games = _tables(round_, 55, 52)
    alerts_raise_due()
    Alert.objects.filter(game=games[0]).update(acknowledged_at=timezone.now())
    data = judge_dashboard(tournament=round_.tournament)
    assert [t["table"] for t in data["tables"]] == [2, 1]
    assert [(a["table"], a["open"], a["rank"]) for a in data["alerts"]] == [
        (2, True, 1),
        (1, False, None),
    ]


def test_dashboard_query_count_does_not_grow_with_tables(round_, django_assert_max_num_queries):
    _tables(round_, *([55] * 3))
    alerts_raise_due()
    with django_assert_max_num_queries(8) as small:
        judge_dashboard(tournament=round_.tournament)
    _tables_more = [GameFactory(round=round_, table_number=10 + i) for i in range(12)]
    for game in _tables_more:
        clock_start(game=game, at=ago(56))
    alerts_raise_due()
    with django_assert_max_num_queries(len(small.captured_queries)):
        data = judge_dashboard(tournament=round_.tournament)
    assert len(data["tables"]) == 15


def test_dashboard_shows_the_round_in_progress():
    tournament = TournamentFactory()
    RoundFactory(tournament=tournament, number=1, status="closed")
    current = RoundFactory(tournament=tournament, number=2, status="in_progress")
    RoundFactory(tournament=tournament, number=3, status="draft")
    GameFactory(round=current)
    data = judge_dashboard(tournament=tournament)
    assert data["round"] == 2 and len(data["tables"]) == 1


def test_dashboard_without_rounds_is_empty():
    data = judge_dashboard(tournament=TournamentFactory())
    assert data["round"] is None and data["tables"] == []


# --- pages and JSON --------------------------------------------------------------


def test_page_needs_login(client, round_):
    url = f"/tournaments/{round_.tournament.slug}/judge/"
    response = client.get(url)
    assert response.status_code == 302
    assert "/login/" in response["Location"]


def test_page_is_refused_to_a_player_and_a_judge_of_another_event(client, round_):
    judge_of(TournamentFactory(), "elsewhere")
    UserFactory(username="player")
    for username in ("elsewhere", "player"):
        client.login(username=username, password="pw-for-tests")
        response = client.get(f"/tournaments/{round_.tournament.slug}/judge/")
        assert response.status_code == 403
        assert "dommeroversigten" in response.content.decode()
        api = client.get(f"/api/tournaments/{round_.tournament.slug}/judge/dashboard/")
        assert api.status_code == 403
        assert api.json()["error"]["code"] == "permission_denied"


def test_page_renders_in_danish_for_a_judge_without_inline_script(client, round_):
    _tables(round_, 51)
    alerts_raise_due()
    judge_of(round_.tournament)
    client.login(username="judge", password="pw-for-tests")
    response = client.get(f"/tournaments/{round_.tournament.slug}/judge/")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="da">' in html
    assert "Dommeroversigt" in html
    assert 'id="judge-initial" type="application/json"' in html
    assert "js/judge_dashboard.js" in html
    # Every <script> either loads a file or carries JSON data (CSP).
    for chunk in html.split("<script")[1:]:
        tag = chunk.split(">", 1)[0]
        assert "src=" in tag or 'type="application/json"' in tag
    assert " style=" not in html and " onclick=" not in html


def test_dashboard_json_for_an_organiser(client, round_):
    _tables(round_, 51)
    alerts_raise_due()
    organiser_of(round_.tournament)
    client.login(username="org", password="pw-for-tests")
    data = client.get(f"/api/tournaments/{round_.tournament.slug}/judge/dashboard/").json()
    assert data["tables"][0]["open_alerts"] == 1
    assert data["alerts"][0]["kind"] == "alert"
    assert data["alerts"][0]["rank"] == 1


def test_acknowledge_over_the_api_needs_csrf(round_):
    from django.test import Client

    games = _tables(round_, 51)
    alerts_raise_due()
    alert = Alert.objects.get(game=games[0])
    judge = judge_of(round_.tournament)
    client = Client(enforce_csrf_checks=True)
    client.force_login(judge)
    response = client.post(f"/api/alerts/{alert.pk}/acknowledge/")
    assert response.status_code == 403
    alert.refresh_from_db()
    assert alert.acknowledged_at is None
    client.get(f"/tournaments/{round_.tournament.slug}/judge/")
    token = client.cookies["csrftoken"].value
    response = client.post(f"/api/alerts/{alert.pk}/acknowledge/", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200
    assert response.json()["acknowledged_by"] == "judge"


# --- a round of 100 tables at their limits ----------------------------------------

STUCK = {"known": True, "stuck": True, "elapsed_s": 3120.0, "overrun_s": None, "progress": 0.05}
UNKNOWN = {"known": False, "stuck": False, "elapsed_s": 3120.0, "overrun_s": None, "progress": None}


def _over(minutes: float) -> dict:
    return {"known": True, "stuck": False, "elapsed_s": 3120.0, "overrun_s": minutes * 60.0,
            "progress": 0.5}  # fmt: skip


@pytest.fixture
def hundred(round_, monkeypatch):
    """Tables 1–40 past the limit (61 min), 41–99 at the alert mark (52 min), table 100
    given 5 extra minutes (its mark moved to 55); predictions set per table."""
    from games.services import clock as clock_service

    monkeypatch.setattr(clock_service, "_schedule_marks", lambda clocks: None)
    judge = judge_of(round_.tournament)
    games = {}
    for number in range(1, 101):
        games[number] = game = GameFactory(round=round_, table_number=number)
        clock_start(game=game, at=ago(61 if number <= 40 else 52 if number < 100 else 56))
    from games.services.clock import clock_extend

    clock_extend(judge=JudgeAtGame(games[100], judge), minutes=5, reason="toiletpause")
    alerts_raise_due()
    predictions = {
        **{n: _over(2) for n in range(41, 100)},
        47: STUCK, 88: STUCK, 52: _over(14), 61: _over(9), 70: UNKNOWN,
        **{n: _over(-5) for n in (43, 44, 45)},
    }  # fmt: skip
    for number, prediction in predictions.items():
        Alert.objects.filter(game=games[number], kind="alert").update(prediction=prediction)
    return games


def test_a_hundred_tables_at_their_limits_come_in_groups_most_urgent_first(round_, hundred):
    data = judge_dashboard(tournament=round_.tournament)
    groups = data["alert_groups"]
    assert [(g["kind"], g["mark_minute"], len(g["entries"])) for g in groups] == [
        ("limit", 60, 40),
        ("alert", 50, 59),
        ("alert", 55, 1),
    ]
    limit, mark, extended = groups
    assert limit["label"] == "60 minutter — tiden er gået"
    assert [e["table"] for e in limit["entries"]] == list(range(1, 41))
    # A table past its limit is listed once; its superseded 50-minute alert goes with it.
    assert all(len(e["ids"]) == 2 for e in limit["entries"])
    assert not {e["table"] for e in mark["entries"]} & set(range(1, 41))
    # Stuck first, then the largest overrun, then unknown (counted as on schedule), then on time.
    order = [e["table"] for e in mark["entries"]]
    assert order[:4] == [47, 88, 52, 61]
    assert order.index(70) > order.index(99) and order[-3:] == [43, 44, 45]
    shorts = {e["table"]: e["short"] for e in mark["entries"]}
    assert shorts[47] == "sidder fast"
    assert shorts[52] == "ca. 14 min over tid"
    assert shorts[70] == "ingen træk logget"
    assert shorts[43] == "til tiden"
    assert extended["entries"][0]["table"] == 100
    sentences = {t["table"]: t["prediction_label"] for t in data["tables"]}
    assert sentences[52] == "I dette tempo går spillet ca. 14 min over tid."
    assert sentences[70].startswith("Bordet har ikke logget nogen træk")
    assert not any("trækliste" in s or "prognose:" in s.split(",")[0] for s in sentences.values())


def test_acknowledge_all_of_a_group_over_the_api(
    client, round_, hundred, django_capture_on_commit_callbacks
):
    client.login(username="judge", password="pw-for-tests")
    url = f"/api/tournaments/{round_.tournament.slug}/judge/dashboard/"
    limit = client.get(url).json()["alert_groups"][0]
    ids = [i for e in limit["entries"] for i in e["ids"]]
    late = GameFactory(round=round_, table_number=101)  # raised after the judge looked
    clock_start(game=late, at=ago(62))
    with django_capture_on_commit_callbacks(execute=True):  # the judging version bumps
        alerts_raise_due()
        response = client.post(
            f"/api/tournaments/{round_.tournament.slug}/judge/alerts/acknowledge/",
            {"ids": ids},
            content_type="application/json",
        )
    assert response.status_code == 200 and response.json() == {"acknowledged": 80}
    assert Alert.objects.filter(acknowledged_by__username="judge").count() == 80
    data = client.get(url).json()
    # Only the alert raised after the judge looked is still open in the 60-minute group.
    first = data["alert_groups"][0]
    assert (first["mark_minute"], [e["table"] for e in first["entries"]]) == (60, [101])
    assert sum(1 for a in data["alerts"] if not a["open"]) == 80
    # Repeating it changes nothing.
    again = client.post(
        f"/api/tournaments/{round_.tournament.slug}/judge/alerts/acknowledge/",
        {"ids": ids},
        content_type="application/json",
    )
    assert again.json() == {"acknowledged": 0}


def test_acknowledge_all_leaves_other_events_alone_and_refuses_bad_input(client, round_, hundred):
    other_round = RoundFactory(status="in_progress")
    other = GameFactory(round=other_round, table_number=1)
    clock_start(game=other, at=ago(52))
    alerts_raise_due()
    foreign = Alert.objects.get(game=other)
    client.login(username="judge", password="pw-for-tests")
    url = f"/api/tournaments/{round_.tournament.slug}/judge/alerts/acknowledge/"
    response = client.post(url, {"ids": [foreign.pk]}, content_type="application/json")
    assert response.json() == {"acknowledged": 0}
    foreign.refresh_from_db()
    assert foreign.acknowledged_at is None
    for body in ({"ids": []}, {"ids": "1,2"}, {"ids": [True]}, {"ids": [1] * 1001}, {}):
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 400
        error = response.json()["error"]
        assert error["code"] == "alert_ids_invalid"
        assert error["message_da"].startswith("Send id'erne")
    assert not Alert.objects.filter(acknowledged_at__isnull=False).exists()
