"""The hall screen: one summary of every table, clocks included, shared briefly.

The hall page makes one request per poll (the hall API) for all its tables:
each table's clock comes with the summary, so clock.js fetches none.
"""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from core.live_copy import mark_of, tables_scope
from core.public_cache import MARK_HEADER, SERVER_TIME_HEADER
from games.models import GameClock
from games.selectors import HALL_CACHE_SECONDS, hall_tables
from games.services.clock import clock_extend, clock_pause, clock_start_round
from games.services.judges import JudgeAtEvent, JudgeAtGame
from games.services.move_log import move_submit
from tests.factories import GameFactory, RoundFactory, TournamentFactory, judge_of
from tournament.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_():
    tournament = TournamentFactory(slug="dm-hall")
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.PUBLISHED)
    for n in range(3):
        GameFactory(round=round_, table_number=n + 1)
    clock_start_round(round=round_)
    round_.refresh_from_db()
    return round_


API = "/api/tournaments/dm-hall/hall/"
PAGE = "/tournaments/dm-hall/hall/"


def test_every_table_carries_its_clock_as_the_clock_api_gives_it(round_):
    hall = Client().get(API).json()
    assert hall["round"] == 1 and len(hall["tables"]) == 3
    assert hall["server_time"]
    for table in hall["tables"]:
        clock = Client().get(f"/api/games/{table['game_id']}/clock/").json()
        shown = table["clock"]
        for field in ("status", "status_label", "limit_s", "alert_s", "speed"):
            assert shown[field] == clock[field]
        assert shown["status"] == "running" and shown["status_label"] == "Kører"
        assert (shown["limit_s"], shown["alert_s"]) == (60 * 60, 50 * 60)
        # Read no later than the clock API's own answer, from the same clock.
        assert shown["server_time"] <= clock["server_time"]
        assert 0 <= shown["elapsed_s"] <= clock["elapsed_s"]
    assert len({t["clock"]["server_time"] for t in hall["tables"]}) == 1  # one instant for all


def test_the_clock_label_follows_the_request_language_of_a_shared_summary(round_):
    danish = Client().get(API).json()["tables"][0]["clock"]["status_label"]
    visitor = Client()
    visitor.cookies["django_language"] = "en"  # the language switch's choice
    english = visitor.get(API).json()["tables"][0]["clock"]
    assert (danish, english["status_label"]) == ("Kører", "Running")


def test_the_page_puts_the_late_tables_first_and_the_api_keeps_table_order(round_):
    _first, second, third = round_.games.order_by("table_number")
    now = timezone.now()
    GameClock.objects.filter(game=third).update(started_at=now - datetime.timedelta(minutes=61))
    GameClock.objects.filter(game=second).update(started_at=now - datetime.timedelta(minutes=52))
    cache.clear()
    html = Client().get(PAGE).content.decode()
    drawn = sorted((1, 2, 3), key=lambda n: html.index(f'data-table="{n}"'))
    assert drawn == [3, 2, 1]  # past the limit, past the alert mark, playing
    assert [t["table"] for t in Client().get(API).json()["tables"]] == [1, 2, 3]


def test_a_paused_extended_and_an_alerting_clock_show_in_the_hall(round_):
    first, second, third = round_.games.order_by("table_number")
    judge = judge_of(round_.tournament)
    clock_pause(judge=JudgeAtGame(first, judge), reason="Judge call")
    clock_extend(judge=JudgeAtGame(second, judge), minutes=5, reason="Delayed start")
    past_alert = timezone.now() - datetime.timedelta(minutes=55)
    GameClock.objects.filter(game=third).update(started_at=past_alert)
    cache.clear()  # the next poll after the shared copy expired
    tables = {t.table: t.clock for t in hall_tables(round_=round_)}
    assert tables[1].status == "paused"
    assert (tables[2].limit_s, tables[2].alert_s) == (65 * 60, 55 * 60)
    assert tables[3].elapsed_s >= tables[3].alert_s  # clock.js colours it


def test_the_summary_reads_a_fixed_number_of_queries_for_any_number_of_tables(
    round_, django_assert_max_num_queries
):
    hall_tables(round_=round_)  # every replay is in the process cache from now on
    cache.clear()
    with django_assert_max_num_queries(10) as few:
        hall_tables(round_=round_)
    for n in range(4, 12):
        game = GameFactory(round=round_, table_number=n)
        move_submit(game=game, text="R 11: in", client_id=f"hall-client-{n:03d}", expected_seq=0)
    clock_start_round(round=round_)
    cache.clear()
    with django_assert_max_num_queries(len(few.captured_queries)):
        tables = hall_tables(round_=round_)
    assert len(tables) == 11 and tables[-1].seq == 1


def test_the_hall_page_feeds_its_clocks_instead_of_fetching_them(round_):
    html = Client().get(PAGE).content.decode()
    assert "data-clock-url" not in html
    for game in round_.games.all():
        assert f'data-clock-feed="{game.pk}"' in html
    assert "Bord 1" in html  # the table title in the page's language
    # clock.js first, so live.js can feed it from its first answer.
    assert html.index("js/clock.js") < html.index("js/live.js")


@pytest.mark.parametrize("url", [PAGE, API])
def test_anonymous_hall_answers_are_marked_for_the_summarys_lifetime(round_, url):
    res = Client().get(url)
    assert res[MARK_HEADER] == f"max-age={HALL_CACHE_SECONDS}"
    assert float(res[SERVER_TIME_HEADER]) == pytest.approx(
        timezone.now().timestamp(), abs=60
    )  # epoch seconds, not a duration


@pytest.mark.parametrize("url", [PAGE, API])
def test_a_judges_hall_and_an_unpublished_hall_are_never_marked(round_, url):
    judge = judge_of(round_.tournament)
    client = Client()
    client.force_login(judge)
    assert MARK_HEADER not in client.get(url)
    round_.tournament.published = False
    round_.tournament.save()
    assert MARK_HEADER not in client.get(url)  # the judge still sees it
    assert Client().get(url).status_code == 404


def test_an_aged_summary_is_renewed_by_one_process_while_the_others_serve_it(
    round_, django_assert_num_queries, monkeypatch
):
    from games.selectors import cache as read_cache

    first = hall_tables(round_=round_)
    moves = first[0].seq
    game = round_.games.get(table_number=1)
    move_submit(game=game, text="11: in", client_id="hall-aged-1", expected_seq=moves)
    # The summary ages past HALL_CACHE_SECONDS while another process renews it.
    later = read_cache.time.time() + HALL_CACHE_SECONDS + 0.5
    monkeypatch.setattr(read_cache.time, "time", lambda: later)
    round_.refresh_from_db()
    mark = mark_of(tables_scope(round_.tournament_id))  # the polled copies' (core.live_copy)
    renewing = (
        f"hall:v5:{round_.pk}:{round_.created_at.timestamp()}:{round_.status}:{mark}:renewing"
    )
    assert cache.add(renewing, 1, 5)
    with django_assert_num_queries(0):
        served = hall_tables(round_=round_)
    assert served[0].seq == moves  # the old copy, not rebuilt here
    cache.delete(renewing)
    renewed = hall_tables(round_=round_)
    assert renewed[0].seq == moves + 1


def test_the_summary_fetches_every_tables_numbers_in_one_round_trip(round_, monkeypatch):
    from games import selectors
    from games.selectors import hall

    games = list(round_.games.order_by("table_number"))
    for n, game in enumerate(games):
        move_submit(game=game, text="11: in", client_id=f"hall-client-{n}", expected_seq=0)
    expected = [selectors.view_summary(selectors.game_log(game=game)).distance for game in games]
    selectors.log_cache.clear()  # another process made them: only the shared cache has them
    calls = []
    real_get, real_get_many = cache.get, cache.get_many
    inside = []  # the local-memory backend's get_many calls get itself

    def get(key, *args, **kwargs):
        if not inside:
            calls.append(("get", key))
        return real_get(key, *args, **kwargs)

    def get_many(keys, *args, **kwargs):
        calls.append(("get_many", list(keys)))
        inside.append(1)
        try:
            return real_get_many(keys, *args, **kwargs)
        finally:
            inside.pop()

    monkeypatch.setattr(cache, "get", get)
    monkeypatch.setattr(cache, "get_many", get_many)
    tables = hall._hall_tables(round_=round_)
    assert [t.seq for t in tables] == [1, 1, 1]
    assert [t.distance for t in tables] == expected
    logs = [(kind, keys) for kind, keys in calls if "movelog:" in str(keys)]
    # The summaries only: no replay is fetched or unpickled.
    assert [(kind, len(keys)) for kind, keys in logs] == [("get_many", 3)]
    assert all(key.startswith("movelog:summary:") for key in logs[0][1])

    # Without summaries (lost, or made before them): the replays, in one round trip.
    cache.delete_many(logs[0][1])
    selectors.log_cache.clear()
    calls.clear()
    tables = hall._hall_tables(round_=round_)
    assert [t.distance for t in tables] == expected
    logs = [(kind, keys) for kind, keys in calls if "movelog:" in str(keys)]
    assert [(kind, len(keys)) for kind, keys in logs] == [("get_many", 3), ("get_many", 3)]
    assert all(key.startswith("movelog:v2:") for key in logs[1][1])


def test_a_teams_locked_count_is_one_piece_that_does_not_wrap(round_):
    # The card lays its parts out as grid rows: "1" and "/8 låst" used to be two rows.
    html = Client().get(PAGE).content.decode()
    for team in ("YB", "RG"):
        assert (
            f'<span class="hall-locked"><span class="locked" data-locked="{team}">0</span>'
            '/8<span class="hall-locked-word">&nbsp;låst</span></span>'
        ) in html


def test_the_move_count_is_the_players_entries_that_stand(round_, record):
    # Six played entries, a judge's void of the sixth, a warning: 5 moves stand.
    from judging.services.rulings import ruling_void, ruling_warning

    game = round_.games.get(table_number=1)
    game.first_dealer = "Y"
    game.save()
    for i, text in enumerate(record["moves"][:6]):
        move_submit(game=game, text=text, client_id=f"hall-count-{i:03d}", expected_seq=i)
    judge = judge_of(round_.tournament)
    ruling_void(game=game, actor=judge, seq=6, reason="Out of turn.")
    ruling_warning(game=game, actor=judge, seat="Y", reason="Talking.")
    cache.clear()
    table = next(t for t in hall_tables(round_=round_) if t.table == 1)
    assert table.seq == 8  # every entry of the log
    assert table.moves == 5  # what the hall shows
    html = Client().get(PAGE).content.decode()
    assert '<span data-field="moves">5</span>' in html


def test_the_standing_moves_of_a_log():
    from games.selectors.log import standing_moves

    texts = ["R 11: in", "B 1: in", "! WARN B", "! VOID 2", "B 2: in", "! UNDO 3"]
    assert standing_moves(texts) == 2  # entries 1 and 5
    # An undone void gives its entry back.
    assert standing_moves(["R 11: in", "B 1: in", "! VOID 2", "! UNDO 3"]) == 2


def test_an_open_judge_call_is_marked_without_its_reason(round_):
    from judging.services.calls import judge_call_close, judge_call_create, judge_call_take

    first, second, _third = round_.games.order_by("table_number")
    judge = judge_of(round_.tournament)
    call = judge_call_create(game=first, client_id="hall-call-1", reason="Private matter")
    taken = judge_call_create(game=second, client_id="hall-call-2")
    judge_call_take(call=taken, judge=JudgeAtEvent(taken.tournament, judge))
    cache.clear()
    hall = Client().get(API).json()
    marks = {t["table"]: t["call"] for t in hall["tables"]}
    assert marks == {1: "open", 2: "taken", 3: None}
    assert "Private matter" not in Client().get(API).content.decode()
    # The page lists the tables with a call first, as live.js does after each poll.
    html = Client().get(PAGE).content.decode()
    drawn = [html.index(f'data-table="{n}"') for n in (1, 2, 3)]
    assert drawn == sorted(drawn)
    judge_call_close(call=call, judge=JudgeAtEvent(call.tournament, judge))
    cache.clear()
    assert hall_tables(round_=round_)[0].call is None


def test_a_summary_or_hall_copy_of_an_older_release_is_never_read(round_):
    """A process of the release before kept plain dicts under the older keys (and
    would keep them under the new ones if it could): the hall reads neither."""
    from core.cache import cache_key
    from games import selectors

    game = round_.games.get(table_number=1)
    move_submit(game=game, text="11: in", client_id="hall-older-1", expected_seq=0)
    view = selectors.game_log(game=game)
    old = {"seq": 99, "moves": 99, "distance": {"YB": 1, "RG": 1}, "locked": {"YB": 8, "RG": 0},
           "winner": None, "to_move": "Y"}  # fmt: skip
    cache.clear()
    selectors.log_cache.clear()
    cache.set(cache_key("movelog", "summary", "v2", *view.key), old)
    # An old-shaped value under the new key too: it is not of the summary's kind.
    cache.set(cache_key("movelog", "summary", "v3", *view.key), old)
    round_.refresh_from_db()
    mark = mark_of(tables_scope(round_.tournament_id))
    older_hall = f"hall:v4:{round_.pk}:{round_.created_at.timestamp()}:{round_.status}:{mark}"
    cache.set(older_hall, (timezone.now().timestamp(), [{"table": 1, "seq": 99}]), 30)
    tables = hall_tables(round_=round_)
    assert [type(t).__name__ for t in tables] == ["HallTable"] * 3
    assert (tables[0].seq, tables[0].moves, tables[0].locked) == (1, 1, {"YB": 0, "RG": 0})
