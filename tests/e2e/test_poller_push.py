"""The poller's push stream (static/js/poller.js, ``push``) in the browser.

The stream and the polled endpoint are answered by Playwright (page.route):
a pushed event polls at once whatever the interval; the browser reconnects
by itself and the page catches up; a stream refused (204, push off), broken or not
supported at all leaves the page polling as before. Last, a real live table
page whose stream is blocked still follows a move by polling.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.factories import GameFactory

pytestmark = pytest.mark.django_db(transaction=True)

START = """async ({ interval, kinds, settle }) => {
  const { Poller } = await import("/static/js/poller.js");
  window.polls = 0;
  window.poller = new Poller({
    url: "/poll-probe",
    interval,
    push: { url: "/push-probe", kinds, settle },
    onData: () => { window.polls += 1; },
  });
  window.poller.start();
}"""


class Probes:
    """Answers the poll (a new ETag each time) and the stream (from ``stream``)."""

    def __init__(self) -> None:
        self.polls = 0
        self.streams: list[dict[str, str]] = []
        self.stream: tuple[int, str] = (200, "")

    def poll(self, route) -> None:  # type: ignore[no-untyped-def]
        self.polls += 1
        route.fulfill(
            status=200,
            headers={"ETag": f'"{self.polls}"'},
            body=json.dumps({"n": self.polls}),
            content_type="application/json",
        )

    def push(self, route) -> None:  # type: ignore[no-untyped-def]
        self.streams.append(route.request.all_headers())
        status, body = self.stream
        if status == 0:
            route.abort()
        else:
            route.fulfill(status=status, body=body, content_type="text/event-stream")


@pytest.fixture
def probes(page, live_server):  # type: ignore[no-untyped-def]
    found = Probes()
    page.route("**/poll-probe", found.poll)
    page.route("**/push-probe", found.push)
    page.goto(f"{live_server.url}/")
    return found


def event(event_id: int, kind: str) -> str:
    return f'id: {event_id}\ndata: {{"kind":"{kind}"}}\n\n'


def test_a_pushed_change_polls_at_once_and_a_reconnect_catches_up(page, probes):
    probes.stream = (200, "retry: 300\n\n" + event(41, "move") + event(42, "move"))
    page.evaluate(START, {"interval": 60000, "kinds": None})
    # No poll falls due in a minute: these come from the stream (its opening and events).
    page.wait_for_function("() => window.polls >= 1")
    assert probes.streams[0]["accept"] == "text/event-stream"
    # The answer ended: the browser reconnects by itself (with the last id it saw,
    # a header Chromium adds below Playwright's interception; the server's side of
    # the resume is tests/core/push/test_stream.py), and the poller catches up.
    page.wait_for_function("() => window.polls >= 3", timeout=5000)
    assert len(probes.streams) >= 2


def test_a_pushed_change_polls_again_once_its_shared_moment_is_over(page, probes):
    """``push.settle`` (the hall, shared for 2 s after a change): one more poll that
    long after the last pushed change, so an answer that predated it is replaced."""
    probes.stream = (200, "retry: 60000\n\n" + event(5, "tables") + event(6, "tables"))
    page.evaluate(START, {"interval": 60000, "kinds": ["tables"], "settle": 600})
    page.wait_for_function("() => window.polls >= 1")
    page.wait_for_timeout(300)
    settled_before = page.evaluate("window.polls")
    page.wait_for_function(f"() => window.polls > {settled_before}", timeout=3000)
    page.wait_for_timeout(1200)
    # The pushed changes' polls, then exactly one settle poll: no endless re-polling.
    assert page.evaluate("window.polls") == settled_before + 1


def test_only_the_kinds_asked_for_poll(page, probes):
    probes.stream = (200, "retry: 60000\n\n")
    page.evaluate(START, {"interval": 60000, "kinds": ["pages"]})
    page.wait_for_function("() => window.polls === 1")  # the stream opened: catch up once
    probes.stream = (200, "retry: 60000\n\n" + event(7, "tables"))
    page.evaluate("() => { window.poller.stop(); window.poller.start(); }")
    page.wait_for_timeout(800)
    assert page.evaluate("window.polls") == 2  # the reopening only, not the "tables" event


@pytest.mark.parametrize("stream", [(204, ""), (0, ""), (503, "")], ids=["off", "broken", "503"])
def test_without_a_stream_the_page_polls_as_before(page, probes, stream):
    probes.stream = stream
    page.evaluate(START, {"interval": 150, "kinds": None})
    page.wait_for_function("() => window.polls >= 4", timeout=5000)


def test_a_browser_without_event_source_polls_as_before(page, probes):
    page.evaluate("() => { window.EventSource = undefined; }")
    page.evaluate(START, {"interval": 150, "kinds": None})
    page.wait_for_function("() => window.polls >= 4", timeout=5000)
    assert probes.streams == []


def test_a_live_table_with_its_stream_blocked_follows_a_move(page, live_server):
    from games.services.move_log import move_submit

    game = GameFactory(first_dealer="Y", round__tournament__published=True)
    blocked: list[str] = []
    page.route("**/push/**", lambda route: (blocked.append(route.request.url), route.abort()))
    slug, number = game.round.tournament.slug, game.round.number
    page.goto(f"{live_server.url}/tournaments/{slug}/rounds/{number}/tables/{game.table_number}/")
    expect(page.locator("#seq")).to_have_text("0")
    move_submit(game=game, text="R 11: in", client_id="push-e2e-000001", expected_seq=0)
    expect(page.locator("#seq")).to_have_text("1", timeout=8000)
    assert blocked and blocked[0].endswith(f"/push/table/{game.pk}/")
