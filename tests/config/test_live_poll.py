"""Spectators' polls answered from shared copies (config.live_poll, core.live_copy):
no view and no database for an unchanged answer, a 304 without rendering, a
new answer after every change, and never a copy where the page would not be."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from config.live_poll import LivePollFastPath
from core import live_copy
from games.engine import selfplay_game
from games.selectors import log_cache
from games.services.move_log import move_submit
from judging.services.calls import judge_call_create
from tests.config.wsgi_client import wsgi_call
from tests.factories import GameFactory, RoundFactory, judge_of, organiser_of
from tournament.models import Round
from tournament.page_version import forget_stamps
from tournament.services.audit import tournament_data_changed
from tournament.services.registration.tournaments import tournament_publish

pytestmark = pytest.mark.django_db(transaction=True)

MOVES = selfplay_game(7, first_dealer="Y")["moves"]


class CountingApp:
    def __init__(self, inner) -> None:
        self.inner = inner
        self.calls = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.inner(environ, start_response)


@pytest.fixture(autouse=True)
def _fresh():
    log_cache.clear()
    cache.clear()
    forget_stamps()
    live_copy.forget_reader()
    yield
    log_cache.clear()
    cache.clear()
    forget_stamps()
    live_copy.forget_reader()


@pytest.fixture
def stack():
    """The layer over a counting Django (copies made) and a counting rest of the stack."""
    django = CountingApp(WSGIHandler())
    rest = CountingApp(django)
    return LivePollFastPath(rest, django), django, rest


@pytest.fixture
def game():
    return GameFactory(first_dealer="Y")


def play(game, upto, start=0):
    for i in range(start, upto):
        move_submit(game=game, text=MOVES[i], client_id=f"client-{i:06d}", expected_seq=i)


def get(wsgi, path, *, query="", etag="", cookie=""):
    status, headers, body = wsgi_call(wsgi, path, query=query, etag=etag, cookie=cookie)
    return int(status[:3]), headers, body


def state(wsgi, game, **kwargs):
    return get(wsgi, f"/api/games/{game.pk}/state/", query="tail=20", **kwargs)


def hall(wsgi, slug, **kwargs):
    return get(wsgi, f"/api/tournaments/{slug}/hall/", **kwargs)


def test_an_unchanged_state_is_answered_from_the_copy_without_django_or_the_database(stack, game):
    wsgi, django, _rest = stack
    play(game, 3)
    status, headers, body = state(wsgi, game)
    assert status == 200 and django.calls == 1
    assert cache.get(live_copy.copy_key("state", f"{game.pk}:tail=20:127.0.0.1")) is not None
    with CaptureQueriesContext(connection) as queries:
        again_status, again_headers, again_body = state(wsgi, game)
    assert len(queries) == 0
    assert django.calls == 1
    assert (again_status, again_body) == (200, body)
    assert b'"seq":3' in again_body
    # Django's own headers, the security ones included, and the same ETag it sent.
    for name in ("ETag", "Content-Type", "Cache-Control", "Content-Security-Policy"):
        assert again_headers[name] == headers[name]
    assert again_headers["X-Frame-Options"] == "DENY"
    assert int(again_headers["Content-Length"]) == len(body)


def test_a_matching_etag_is_a_304_from_the_copy(stack, game):
    wsgi, django, _rest = stack
    play(game, 2)
    _status, headers, _body = state(wsgi, game)
    with CaptureQueriesContext(connection) as queries:
        status, again, body = state(wsgi, game, etag=headers["ETag"])
    assert len(queries) == 0 and django.calls == 1
    assert (status, body) == (304, b"")
    assert again["ETag"] == headers["ETag"]
    # Another tag gets the body, still from the copy.
    status, _headers, body = state(wsgi, game, etag='W/"something-else"')
    assert status == 200 and b'"seq":2' in body and django.calls == 1


def test_the_first_poll_with_the_pages_etag_is_a_304_too(stack, game):
    """The live page embeds the state's ETag: a poll sent with it and finding no copy
    yet is answered by Django without the tag (to make the copy), then 304 from it."""
    wsgi, django, _rest = stack
    play(game, 1)
    etag = state(wsgi, game)[1]["ETag"]
    cache.clear()
    status, _headers, body = state(wsgi, game, etag=etag)
    assert (status, body) == (304, b"") and django.calls == 2


def test_a_move_retires_the_copy_and_the_next_poll_has_it(stack, game):
    wsgi, django, _rest = stack
    play(game, 2)
    _status, headers, _body = state(wsgi, game)
    state(wsgi, game)
    assert django.calls == 1
    play(game, 3, start=2)
    status, after, body = state(wsgi, game, etag=headers["ETag"])
    assert status == 200 and b'"seq":3' in body
    assert after["ETag"] != headers["ETag"] and django.calls == 2
    # ... and the new copy answers the polls after it.
    assert state(wsgi, game, etag=after["ETag"])[0] == 304 and django.calls == 2


def test_a_change_committed_while_the_copy_is_made_is_never_served(stack, game):
    """The marks are read before Django reads the database: a change that commits
    in between leaves the copy under a retired mark."""
    wsgi, django, _rest = stack
    play(game, 1)
    inner = django.inner

    def answering_then_a_move_commits(environ, start_response):
        answer = inner(environ, start_response)
        play(game, 2, start=1)
        return answer

    django.inner = answering_then_a_move_commits
    status, _headers, body = state(wsgi, game)
    assert status == 200 and b'"seq":1' in body
    django.inner = inner
    status, _headers, body = state(wsgi, game)
    assert status == 200 and b'"seq":2' in body and django.calls == 2


def test_a_draft_rounds_table_is_never_answered_from_a_copy(stack):
    wsgi, django, _rest = stack
    draft = GameFactory(round=RoundFactory(status=Round.Status.DRAFT))
    for _ in range(2):
        status, _headers, _body = state(wsgi, draft)
        assert status == 404
    assert django.calls == 2  # every poll asked Django, nothing was kept
    assert cache.get(live_copy.copy_key("state", f"{draft.pk}:tail=20:127.0.0.1")) is None


def test_a_judge_polling_a_draft_leaves_no_copy_for_anyone_else(stack):
    wsgi, django, _rest = stack
    draft = GameFactory(round=RoundFactory(status=Round.Status.DRAFT))
    client = Client()
    client.force_login(judge_of(draft.round.tournament))
    session = f"sessionid={client.cookies['sessionid'].value}"
    assert state(wsgi, draft, cookie=session)[0] == 200  # the judge sees the draft
    assert state(wsgi, draft)[0] == 404  # an anonymous visitor does not, then or later
    assert state(wsgi, draft)[0] == 404 and django.calls == 3


def test_an_event_taken_off_the_public_pages_stops_its_copies_at_once(stack, game):
    wsgi, django, _rest = stack
    tournament = game.round.tournament
    slug = tournament.slug
    assert state(wsgi, game)[0] == 200 and hall(wsgi, slug)[0] == 200
    assert state(wsgi, game)[0] == 200 and hall(wsgi, slug)[0] == 200
    assert django.calls == 2
    tournament_publish(tournament=tournament, actor=organiser_of(tournament), published=False)
    forget_stamps()
    assert state(wsgi, game)[0] == 404
    assert hall(wsgi, slug)[0] == 404
    assert django.calls == 4


def test_a_copy_whose_event_mark_moved_is_not_waited_for_nor_served(stack, game):
    wsgi, django, _rest = stack
    state(wsgi, game)
    tournament_data_changed(tournament=game.round.tournament)
    assert state(wsgi, game)[0] == 200 and django.calls == 2


def test_signed_in_visitors_and_other_queries_go_down_the_stack(stack, game):
    wsgi, django, rest = stack
    state(wsgi, game)
    state(wsgi, game, cookie="sessionid=abc")
    get(wsgi, f"/api/games/{game.pk}/state/", query="tail=20&legal=1")
    get(wsgi, f"/api/games/{game.pk}/state/", query="tail=5")
    assert rest.calls == 3 and django.calls == 4
    # The whole log (API clients) has a copy of its own.
    full = get(wsgi, f"/api/games/{game.pk}/state/")
    assert get(wsgi, f"/api/games/{game.pk}/state/") == full and django.calls == 5


def test_the_hall_is_answered_from_its_copy_until_a_table_or_a_call_changes(
    stack, game, monkeypatch
):
    """After a change the hall's copy is still shared for HALL_CACHE_SECONDS (as its
    API says); once that moment is over the next poll has the change."""
    import games.selectors

    wsgi, django, _rest = stack
    slug = game.round.tournament.slug
    status, headers, body = hall(wsgi, slug)
    assert status == 200 and django.calls == 1
    with CaptureQueriesContext(connection) as queries:
        status, again, again_body = hall(wsgi, slug)
    assert len(queries) == 0 and django.calls == 1
    assert again_body == body and "X-Server-Time" in again and again["ETag"]
    assert "X-Public-Cacheable" not in headers and "X-Public-Cacheable" not in again
    assert hall(wsgi, slug, etag=again["ETag"])[0] == 304
    play(game, 1)
    with CaptureQueriesContext(connection) as queries:
        assert hall(wsgi, slug, etag=again["ETag"])[0] == 304  # shared for a moment
    assert len(queries) == 0 and django.calls == 1
    monkeypatch.setattr(games.selectors, "HALL_CACHE_SECONDS", 0)  # the moment is over
    status, _headers, moved = hall(wsgi, slug, etag=again["ETag"])
    assert status == 200 and b'"moves":1' in moved and b'"moves":1' not in body
    assert django.calls == 2
    judge_call_create(game=game, client_id="call-000001", reason="Spørgsmål om reglerne")
    status, _headers, called = hall(wsgi, slug)
    assert status == 200 and b'"call":"open"' in called and django.calls == 3


def test_in_the_halls_moment_a_process_serves_its_own_copy_after_one_round_trip(
    stack, game, monkeypatch
):
    """During a busy round the tables' mark moves at nearly every poll: for the hall's
    moment after a change a process answers from the copy it holds, after the one
    read of the marks, without fetching (and unpickling) the shared copy again."""
    import config.live_poll

    wsgi, django, _rest = stack
    slug = game.round.tournament.slug
    _status, _headers, body = hall(wsgi, slug)
    (held,) = wsgi.copies  # the hall's copy, kept by this process
    reads: list[list[str]] = []
    real = config.live_poll.read_many

    def counted(keys):
        reads.append(list(keys))
        return real(keys)

    monkeypatch.setattr(config.live_poll, "read_many", counted)
    play(game, 1)
    status, _headers, again = hall(wsgi, slug)
    assert status == 200 and again == body and django.calls == 1
    assert len(reads) == 1, reads
    assert held not in reads[0], reads


def test_a_hall_copy_another_process_just_made_answers_though_the_tables_moved_on(
    stack, game, monkeypatch
):
    """While another process makes the hall's new copy this one waits for it; in a busy
    round a table has often moved again by the time it is stored, and that copy is
    still the hall's for its moment: it answers, rather than the wait running out and
    this process rendering the hall once more."""
    import dataclasses

    import config.live_poll

    wsgi, django, _rest = stack
    other = LivePollFastPath(CountingApp(WSGIHandler()), CountingApp(WSGIHandler()))
    slug = game.round.tournament.slug
    hall(wsgi, slug)
    (key,) = wsgi.copies
    # This process's copy is past its moment, and a table moves.
    aged = dataclasses.replace(wsgi.copies[key], made_at=wsgi.copies[key].made_at - 60)
    wsgi.copies[key] = aged
    live_copy.store(key, aged)
    play(game, 1)
    assert cache.add(live_copy.fill_guard_key(key), 1, 2)  # another process is at it
    waited = []

    def meanwhile(seconds):
        if not waited:  # the other process stores its copy; then a table moves again
            cache.delete(live_copy.fill_guard_key(key))
            assert hall(other, slug)[0] == 200
            play(game, 2, start=1)
        waited.append(seconds)

    monkeypatch.setattr(config.live_poll.time, "sleep", meanwhile)
    status, _headers, body = hall(wsgi, slug)
    assert status == 200 and b'"moves":1' in body
    assert django.calls == 1 and other.django.calls == 1
    assert len(waited) == 1


def test_a_live_tables_state_is_never_shared_past_its_own_move(stack, game):
    """Unlike the hall, a live table's copy is retired by its move at once."""
    wsgi, django, _rest = stack
    play(game, 1)
    state(wsgi, game)
    play(game, 2, start=1)
    status, _headers, body = state(wsgi, game)
    assert status == 200 and django.calls == 2 and b'"seq":2' in body


def test_the_halls_copies_are_kept_per_chosen_language(stack, game):
    wsgi, django, _rest = stack
    slug = game.round.tournament.slug
    hall(wsgi, slug)
    hall(wsgi, slug, cookie="django_language=en")
    hall(wsgi, slug, cookie="django_language=en; csrftoken=x")
    hall(wsgi, slug)
    assert django.calls == 2


def test_without_the_cache_every_poll_is_django_as_before(stack, game, monkeypatch):
    wsgi, django, rest = stack
    monkeypatch.setattr("config.live_poll.read_many", lambda keys: {})
    monkeypatch.setattr("core.live_copy.shared_get_many", lambda keys: {})
    assert state(wsgi, game)[0] == 200 and state(wsgi, game)[0] == 200
    assert rest.calls == 2 and django.calls == 2
