"""A live table page resumes its push stream after a lost connection, in the browser.

The page is served as production serves it: one ASGI application (uvicorn, in
a thread of its own with its own event loop: Playwright keeps one running in
the test's thread) that sends ``/push/…`` to the push streams and the rest
to Django, on the real broker (Redis). Between the two sits ``Breaker``: it
can close every open stream from the server's side and hold new ones back
(the push process is down), and it notes what each stream was asked
(Last-Event-ID) and sent (event ids). The browser's EventSource reconnects
by itself with the id of the last event it saw; the entry logged while the
stream was down reaches the page through that resumed stream, and the page
shows it once.
"""

from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
from typing import Any

import pytest
from django.conf import settings
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application
from playwright.sync_api import expect

from config.push_channels import CHANNELS
from core.push import broker
from core.push.stream import PATH_PREFIX, PushApp
from games.engine import selfplay_game
from games.models import Game
from games.services.move_log import move_submit
from tests.factories import GameFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)"),
]

EVENT_ID = re.compile(rb"^id: (\d+)$", re.MULTILINE)


class Breaker:
    """The push streams, as a test can break them (see the module's docstring)."""

    def __init__(self) -> None:
        self.app = PushApp(CHANNELS)
        self.up = threading.Event()
        self.up.set()
        self.held = 0
        self.streams: list[dict[str, Any]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        while not self.up.is_set():  # down: the browser's request waits
            self.held += 1
            await asyncio.sleep(0.05)
        header = dict(scope["headers"]).get(b"last-event-id", b"").decode()
        stream: dict[str, Any] = {
            "last_event_id": header or None,
            "ids": [],
            "drop": asyncio.Event(),
            "loop": asyncio.get_running_loop(),
        }
        self.streams.append(stream)

        async def receive_or_drop() -> Any:
            waiter = asyncio.ensure_future(receive())
            dropper = asyncio.ensure_future(stream["drop"].wait())
            await asyncio.wait({waiter, dropper}, return_when=asyncio.FIRST_COMPLETED)
            if waiter.done():
                dropper.cancel()
                return waiter.result()
            waiter.cancel()
            return {"type": "http.disconnect"}  # the stream ends from the server's side

        async def noted(message: Any) -> None:
            stream["ids"] += [int(i) for i in EVENT_ID.findall(message.get("body", b""))]
            await send(message)

        await self.app(scope, receive_or_drop, noted)

    def down(self) -> None:
        """Hold new streams back and close the open ones."""
        self.up.clear()
        for stream in self.streams:
            stream["loop"].call_soon_threadsafe(stream["drop"].set)


@pytest.fixture
def site(transactional_db, settings):  # type: ignore[no-untyped-def]
    import uvicorn

    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    broker.forget_publisher()
    breaker = Breaker()
    pages = ASGIStaticFilesHandler(get_asgi_application())

    async def application(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith(PATH_PREFIX):
            await breaker(scope, receive, send)
        elif scope["type"] == "http":
            await pages(scope, receive, send)

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = uvicorn.Config(
        application, host="127.0.0.1", port=port, lifespan="off", log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield f"http://127.0.0.1:{port}", breaker
    server.should_exit = True
    thread.join(10)
    broker.forget_publisher()


def _log_entry(game: Game, seq: int) -> None:
    text = selfplay_game(7, first_dealer="Y")["moves"][seq]
    move_submit(game=game, text=text, client_id=f"resume-{seq:06d}", expected_seq=seq)


def _shown_seqs(page: Any) -> list[str]:
    return page.locator("#log li .entry-words").evaluate_all(
        "(items) => items.map((li) => li.textContent.split('.')[0])"
    )


def test_a_live_page_gets_the_move_logged_while_its_stream_was_down_once(page, site):
    base, breaker = site
    game = GameFactory(first_dealer="Y", round__tournament__published=True)
    _log_entry(game, 0)
    slug, number = game.round.tournament.slug, game.round.number
    page.goto(f"{base}/tournaments/{slug}/rounds/{number}/tables/{game.table_number}/")
    expect(page.locator("#seq")).to_have_text("1")
    deadline = time.monotonic() + 10
    while not breaker.streams and time.monotonic() < deadline:
        time.sleep(0.05)
    assert breaker.streams and breaker.streams[0]["last_event_id"] is None
    time.sleep(0.3)  # subscribed
    # Pushed: with the stream open the page polls once a minute only.
    _log_entry(game, 1)
    expect(page.locator("#seq")).to_have_text("2", timeout=5000)
    last_seen = breaker.streams[0]["ids"][-1]

    # The push process goes down: the stream ends, the page's polls fail too, and an
    # entry is logged meanwhile.
    page.route("**/api/games/*/state/**", lambda route: route.abort())
    breaker.down()
    _log_entry(game, 2)
    deadline = time.monotonic() + 10
    while not breaker.held and time.monotonic() < deadline:
        time.sleep(0.05)
    assert breaker.held, "the browser did not try to reconnect"
    assert page.locator("#seq").text_content() == "2"

    # Back up: the held reconnect goes on, from the last event the page saw.
    page.unroute("**/api/games/*/state/**")
    breaker.up.set()
    expect(page.locator("#seq")).to_have_text("3", timeout=10000)
    resumed = breaker.streams[1]
    assert resumed["last_event_id"] == str(last_seen)
    # The resumed stream began with what was missed, and nothing was sent twice.
    assert resumed["ids"] and resumed["ids"][0] > last_seen
    every = [i for stream in breaker.streams for i in stream["ids"]]
    assert len(every) == len(set(every))
    shown = _shown_seqs(page)
    assert shown == ["3", "2", "1"], shown
