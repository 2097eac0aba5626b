"""Who may subscribe to which push channel: exactly who may read the page it belongs to."""

from __future__ import annotations

import asyncio

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from config.push_channels import CHANNELS, event_channel, judging_channel, table_channel
from core.push.stream import PushApp
from tests.core.push.asgi_client import Stream, run_async
from tests.factories import GameFactory, TournamentFactory, judge_of, organiser_of
from tournament.models import Round

anonymous = AnonymousUser()


@pytest.fixture
def public_game(db):
    return GameFactory(round__tournament__published=True)


@pytest.mark.django_db
def test_a_published_table_is_everyones(public_game):
    assert table_channel(str(public_game.pk), anonymous) == f"table:{public_game.pk}"
    slug = public_game.round.tournament.slug
    assert event_channel(slug, anonymous) == f"event:{public_game.round.tournament_id}"


@pytest.mark.django_db
def test_an_unpublished_event_is_its_judges_only():
    game = GameFactory(round__tournament__published=False)
    tournament = game.round.tournament
    assert table_channel(str(game.pk), anonymous) is None
    assert event_channel(tournament.slug, anonymous) is None
    judge = judge_of(tournament)
    assert table_channel(str(game.pk), judge) == f"table:{game.pk}"
    assert event_channel(tournament.slug, judge) == f"event:{tournament.pk}"


@pytest.mark.django_db
def test_a_draft_rounds_tables_are_not_public():
    game = GameFactory(round__tournament__published=True, round__status=Round.Status.DRAFT)
    assert table_channel(str(game.pk), anonymous) is None
    assert table_channel(str(game.pk), organiser_of(game.round.tournament)) == f"table:{game.pk}"


@pytest.mark.django_db
def test_the_judging_channel_is_the_judges_and_organisers(public_game):
    tournament = public_game.round.tournament
    assert judging_channel(tournament.slug, anonymous) is None
    other = judge_of(TournamentFactory(), username="elsewhere")
    assert judging_channel(tournament.slug, other) is None
    assert judging_channel(tournament.slug, judge_of(tournament)) == f"judging:{tournament.pk}"


@pytest.mark.django_db
def test_unknown_and_malformed_keys_name_no_channel():
    assert table_channel("12x", anonymous) is None
    assert table_channel("999999", anonymous) is None
    assert event_channel("no-such-event", anonymous) is None


def _status(path: str, cookie: str = "") -> int:
    async def run() -> int:
        stream = Stream(PushApp(CHANNELS), path, {"Cookie": cookie} if cookie else {})
        status = await stream.status()
        if status == 200:
            await stream.close()
        else:
            await asyncio.wait_for(stream.task, 5)
        return status

    return run_async(run())


@pytest.mark.django_db(transaction=True)
def test_the_stream_checks_the_visitor_by_their_session(settings):
    settings.REDIS_URL = settings.REDIS_URL or ""
    tournament = TournamentFactory(published=False)
    judge = judge_of(tournament)
    client = Client()
    client.force_login(judge)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    if not settings.REDIS_URL:
        assert _status(f"/push/judging/{tournament.slug}/", cookie) == 204
        return
    assert _status(f"/push/judging/{tournament.slug}/") == 404
    assert _status(f"/push/event/{tournament.slug}/") == 404
    assert _status(f"/push/judging/{tournament.slug}/", cookie) == 200
    assert _status(f"/push/event/{tournament.slug}/", cookie) == 200
    assert _status("/push/nothing/1/") == 404


@pytest.mark.django_db
def test_where_django_serves_the_push_address_it_says_no_stream(public_game, client):
    # The embedded default (WSGI): EventSource does not retry a 204, the page polls.
    response = client.get(f"/push/table/{public_game.pk}/")
    assert response.status_code == 204
    assert response.content == b""
