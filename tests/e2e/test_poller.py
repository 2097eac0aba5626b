"""The shared poller (static/js/poller.js) in the browser, against a scripted endpoint.

The endpoint is answered by Playwright (page.route), so every request the
poller makes is seen with its headers and answered as the test says:
conditional GETs with the last ETag, 304 keeping the data, no polls while the
tab is hidden and one at once when it is visible again, the interval doubled
after each error up to the ceiling and back after an answer, stop().
"""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

START = """async () => {
  const { Poller } = await import("/static/js/poller.js");
  window.log = { data: [], notModified: 0, errors: [] };
  window.poller = new Poller({
    url: "/poll-probe",
    interval: 100,
    maxInterval: 800,
    onData: (body) => { window.log.data.push(body.n); },
    onNotModified: () => { window.log.notModified += 1; },
    onError: (error) => { window.log.errors.push(error.status || 0); },
  });
  window.poller.start({ immediate: true });
}"""

HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(document, "visibilityState", {
    configurable: true, get: () => (hidden ? "hidden" : "visible"),
  });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


class Endpoint:
    """Answers /poll-probe from a plan: (status, etag, n); the last entry repeats."""

    def __init__(self) -> None:
        self.plan: list[tuple[int, str | None, int | None]] = []
        self.seen: list[str | None] = []  # If-None-Match of every request

    def __call__(self, route) -> None:  # type: ignore[no-untyped-def]
        self.seen.append(route.request.headers.get("if-none-match"))
        status, etag, n = self.plan[0] if len(self.plan) == 1 else self.plan.pop(0)
        if status == 200 and etag == self.seen[-1]:
            status = 304
        headers = {"ETag": etag} if etag else {}
        body = json.dumps({"n": n}) if status == 200 else ""
        route.fulfill(status=status, headers=headers, body=body, content_type="application/json")


@pytest.fixture
def endpoint(page, live_server):  # type: ignore[no-untyped-def]
    probe = Endpoint()
    page.route("**/poll-probe", probe)
    page.goto(f"{live_server.url}/")
    return probe


def test_polls_send_the_etag_and_a_304_keeps_the_data(page, endpoint):
    endpoint.plan = [(200, '"v1"', 1)]
    page.evaluate(START)
    page.wait_for_function("() => window.log.notModified >= 3")
    assert page.evaluate("window.log.data") == [1]
    assert endpoint.seen[0] is None
    assert set(endpoint.seen[1:]) == {'"v1"'}

    endpoint.plan = [(200, '"v2"', 2)]
    page.wait_for_function("() => window.log.data.length === 2")
    done = page.evaluate("window.log.notModified")
    page.wait_for_function("(n) => window.log.notModified >= n", arg=done + 2)
    assert page.evaluate("window.log.data") == [1, 2]
    assert endpoint.seen[-1] == '"v2"'
    assert page.evaluate("window.log.errors") == []


def test_a_hidden_tab_polls_nothing_and_polls_at_once_when_visible(page, endpoint):
    endpoint.plan = [(200, '"v1"', 1)]
    page.evaluate(START)
    page.wait_for_function("() => window.log.notModified >= 1")
    page.evaluate(HIDE, True)
    page.wait_for_function("() => window.poller.due === true")
    asked = len(endpoint.seen)
    page.wait_for_timeout(500)  # five intervals in the background
    assert len(endpoint.seen) == asked
    assert page.evaluate("window.poller.timer") is None

    answered = page.evaluate("window.log.notModified")
    page.evaluate(HIDE, False)
    page.wait_for_function("(n) => window.log.notModified > n", arg=answered)
    assert len(endpoint.seen) > asked


def test_errors_back_off_to_the_ceiling_and_an_answer_restores_the_interval(page, endpoint):
    endpoint.plan = [(503, None, None)]
    page.evaluate(START)
    page.wait_for_function("() => window.log.errors.length >= 4")
    assert set(page.evaluate("window.log.errors")) == {503}
    assert (
        page.evaluate("window.poller.delay") == 800
    )  # 100 doubled four times is 1600: held at the ceiling
    endpoint.plan = [(200, '"v1"', 7)]
    page.wait_for_function("() => window.log.data.length === 1", timeout=5000)
    assert page.evaluate("window.poller.failures") == 0
    assert page.evaluate("window.poller.delay") == 100


def test_the_delay_doubles_for_each_error_in_a_row(page, endpoint):
    endpoint.plan = [(500, None, None)]
    page.evaluate(START)
    page.evaluate("window.poller.stop()")
    seen = page.evaluate(
        "[0, 1, 2, 3, 4].map((n) => { window.poller.failures = n; return window.poller.delay; })"
    )
    assert seen == [100, 200, 400, 800, 800]


def test_stop_ends_the_polls(page, endpoint):
    endpoint.plan = [(200, '"v1"', 1)]
    page.evaluate(START)
    page.wait_for_function("() => window.log.notModified >= 1")
    page.evaluate("window.poller.stop()")
    page.wait_for_timeout(150)  # a request in flight at stop() may still land
    asked = len(endpoint.seen)
    page.wait_for_timeout(500)
    assert len(endpoint.seen) == asked


def test_a_public_page_fetches_its_fragment_and_pauses_in_the_background(page, live_server):
    from tests.factories import TournamentFactory

    tournament = TournamentFactory()
    fragments: list[int] = []
    page.on("response", lambda r: fragments.append(r.status) if "fragment=1" in r.url else None)
    page.clock.install()
    page.goto(f"{live_server.url}/tournaments/{tournament.slug}/standings/")
    seconds = int(page.locator("[data-autorefresh]").get_attribute("data-autorefresh-seconds"))
    page.clock.run_for(seconds * 1000 + 100)
    page.wait_for_timeout(300)  # the answer to arrive (real time)
    assert fragments == [200]

    page.evaluate(HIDE, True)
    page.clock.run_for(seconds * 3000)
    page.wait_for_timeout(300)
    assert fragments == [200]  # nothing while hidden
    page.evaluate(HIDE, False)
    page.wait_for_timeout(300)
    assert fragments == [200, 200]  # the poll that fell due, at once
