"""The WSGI fast path for public pages: repeated anonymous GETs are answered
without entering Django, and never after the tournament's data changed."""

from __future__ import annotations

import pytest
from django.core.handlers.wsgi import WSGIHandler

from config.public_fastpath import PublicPageFastPath
from core.public_cache import MARK_HEADER
from tests.config.wsgi_client import wsgi_call
from tests.factories import PairFactory, TournamentFactory
from tournament.models import Tournament
from tournament.page_version import forget_stamps
from tournament.services.audit import tournament_data_changed

pytestmark = pytest.mark.django_db(transaction=True)


class CountingApp:
    def __init__(self) -> None:
        self.inner = WSGIHandler()
        self.calls = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.inner(environ, start_response)


@pytest.fixture
def app():
    forget_stamps()
    counting = CountingApp()
    yield counting, PublicPageFastPath(counting)
    forget_stamps()


def _get(wsgi, path, method="GET", cookie="", query="", accept_language=""):
    status, headers, body = wsgi_call(
        wsgi, path, method=method, query=query, cookie=cookie, accept_language=accept_language
    )
    return status, headers, body.decode()


@pytest.fixture
def tournament():
    tournament = TournamentFactory(slug="dm-fast")
    PairFactory(tournament=tournament)
    return tournament


def test_second_anonymous_get_does_not_enter_django_and_keeps_security_headers(app, tournament):
    counting, wsgi = app
    status1, headers1, body1 = _get(wsgi, "/tournaments/dm-fast/standings/")
    status2, headers2, body2 = _get(wsgi, "/tournaments/dm-fast/standings/")
    assert status1.startswith("200") and status2.startswith("200")
    assert counting.calls == 1
    assert body2 == body1
    assert headers2["Content-Security-Policy"] == headers1["Content-Security-Policy"]
    assert headers2["X-Frame-Options"] == "DENY"
    assert MARK_HEADER not in headers1 and MARK_HEADER not in headers2


def test_a_data_change_is_served_fresh(app, tournament):
    counting, wsgi = app
    _get(wsgi, "/tournaments/dm-fast/")
    Tournament.objects.filter(pk=tournament.pk).update(name="Renamed Championship")
    tournament_data_changed(tournament=tournament)
    forget_stamps()  # the per-process version memo lives at most one second
    _, _, body = _get(wsgi, "/tournaments/dm-fast/")
    assert counting.calls == 2
    assert "Renamed Championship" in body


def test_languages_are_cached_separately(app, tournament):
    counting, wsgi = app
    _, _, danish = _get(wsgi, "/tournaments/dm-fast/standings/")
    _, _, english = _get(wsgi, "/tournaments/dm-fast/standings/", cookie="django_language=en")
    assert counting.calls == 2
    assert 'lang="da"' in danish and 'lang="en"' in english


def test_an_english_language_browser_gets_the_danish_event_page(app, tournament):
    counting, wsgi = app
    _, _, first = _get(wsgi, "/tournaments/dm-fast/standings/")
    _, _, english_browser = _get(wsgi, "/tournaments/dm-fast/standings/", accept_language="en")
    assert counting.calls == 1  # the same copy: the event's language, not the browser's
    assert english_browser == first and 'lang="da"' in first


@pytest.mark.parametrize(
    ("method", "cookie", "query"),
    [
        ("POST", "", ""),
        ("GET", "sessionid=abc", ""),
        ("GET", "messages=xyz", ""),
        ("GET", "", "q=Hansen"),
    ],
)
def test_signed_in_posts_messages_and_searches_always_reach_django(
    app, tournament, method, cookie, query
):
    counting, wsgi = app
    for _ in range(2):
        _get(wsgi, "/tournaments/dm-fast/", method=method, cookie=cookie, query=query)
    assert counting.calls == 2


def test_unpublished_tournament_is_never_served_from_the_fast_path(app, tournament):
    counting, wsgi = app
    Tournament.objects.filter(pk=tournament.pk).update(published=False)
    for _ in range(2):
        status, _, _ = _get(wsgi, "/tournaments/dm-fast/")
        assert status.startswith("404")
    assert counting.calls == 2


# --- time-bounded copies (the hall screen follows every move, no version bump) ---


class FakeTime:
    """Stands in for the fast path's ``time`` module: the test moves the clock."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return 1_700_000_000.0 + self.now


@pytest.fixture
def fake_time(monkeypatch):
    from config import public_fastpath

    fake = FakeTime()
    monkeypatch.setattr(public_fastpath, "time", fake)
    return fake


@pytest.fixture
def hall(tournament):
    from tests.factories import GameFactory, RoundFactory
    from tournament.models import Round

    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.IN_PROGRESS)
    GameFactory(round=round_, table_number=1)
    return tournament


@pytest.mark.parametrize("path", ["/tournaments/dm-fast/hall/", "/api/tournaments/dm-fast/hall/"])
def test_the_hall_is_kept_for_its_max_age_only(app, hall, fake_time, path):
    from games.selectors import HALL_CACHE_SECONDS

    counting, wsgi = app
    _, headers, first = _get(wsgi, path)
    fake_time.now += HALL_CACHE_SECONDS - 0.1
    _, _, second = _get(wsgi, path)
    assert counting.calls == 1 and second == first
    assert MARK_HEADER not in headers
    fake_time.now += 0.2  # past the max age: Django answers again
    _get(wsgi, path)
    assert counting.calls == 2


def test_a_kept_copy_says_when_it_is_sent(app, hall, fake_time):
    from core.public_cache import SERVER_TIME_HEADER

    counting, wsgi = app
    _, made, body = _get(wsgi, "/api/tournaments/dm-fast/hall/")
    fake_time.now += 1.5
    _, served, again = _get(wsgi, "/api/tournaments/dm-fast/hall/")
    assert counting.calls == 1 and again == body  # the body still says when it was made
    assert served[SERVER_TIME_HEADER] == f"{fake_time.time():.3f}"
    assert served[SERVER_TIME_HEADER] != made[SERVER_TIME_HEADER]


def test_a_signed_in_judge_never_gets_a_kept_hall(app, hall, fake_time):
    counting, wsgi = app
    for _ in range(2):
        _get(wsgi, "/api/tournaments/dm-fast/hall/", cookie="sessionid=abc")
    assert counting.calls == 2


@pytest.mark.parametrize("mark", ["max-age=", "max-age=two", "forever"])
def test_an_unknown_mark_is_not_kept(tournament, mark):
    calls = []

    def marked(environ, start_response):
        calls.append(1)
        start_response("200 OK", [("Content-Type", "text/plain"), (MARK_HEADER, mark)])
        return [b"page"]

    forget_stamps()
    wsgi = PublicPageFastPath(marked)
    for _ in range(2):
        _get(wsgi, "/tournaments/dm-fast/hall/")
    assert len(calls) == 2
