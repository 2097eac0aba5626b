"""The table device survives a reload offline (headless Chromium): the service
worker keeps the table page and its files, the page keeps the last state it
had next to its queue; reloading (or opening the QR link again) without
network shows the board with its queue and goes on logging; back online, the
entries are stored once each, in order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.engine import replay
from games.models import MoveEntry
from games.offline import offline_manifest
from tests.e2e.table_page import type_move
from tests.e2e.test_table_device import MOVES, RECORD, table_at

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp")  # looked at by hand, not kept


@pytest.fixture
def phone(browser):
    """A fresh phone (its own storage and service workers), closed after the test."""
    contexts = []

    def open_phone():
        ctx = browser.new_context(
            locale="da-DK", timezone_id="Europe/Copenhagen", viewport={"width": 390, "height": 844}
        )
        ctx.set_default_timeout(10_000)
        contexts.append(ctx)
        return ctx, ctx.new_page()

    yield open_phone
    for ctx in contexts:
        ctx.close()


def kept_pages(page):  # type: ignore[no-untyped-def]
    return page.evaluate(
        "() => caches.open('dmp-table-pages')"
        ".then((c) => c.keys()).then((ks) => ks.map((k) => k.url))"
    )


def eventually(page, script, arg=None, tries=100):  # type: ignore[no-untyped-def]
    """Evaluate ``script`` (it may answer with a promise) until it is true."""
    for _ in range(tries):
        if page.evaluate(script, arg):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never true: {script}")


def wait_until_kept(page, url):  # type: ignore[no-untyped-def]
    """The worker is in charge of the page and holds a copy of it."""
    eventually(page, "() => navigator.serviceWorker.controller !== null")
    eventually(
        page,
        "(url) => caches.open('dmp-table-pages').then((c) => c.match(url)).then((r) => !!r)",
        url,
    )
    # Drawn by the kept copy's own state: never used while the page comes from the server.
    assert page.locator("#device").get_attribute("data-page") == "server"


def log(page, k):  # type: ignore[no-untyped-def]
    type_move(page, MOVES[k].split(" ", 1)[1])
    expect(page.locator("#preview-entry")).to_have_text(MOVES[k])
    page.click("#confirm-move")


def board(page):  # type: ignore[no-untyped-def]
    return page.evaluate(
        "() => [...document.querySelectorAll('#board .pawn')].map((p) => p.dataset.loc).sort()"
    )


def position(entries):  # type: ignore[no-untyped-def]
    after = replay({**RECORD, "moves": MOVES[:entries]}).state
    return sorted(loc for locs in after.position.to_json().values() for loc in locs)


def stored(game):  # type: ignore[no-untyped-def]
    """Every log entry the server has, withdrawn or not, in order."""
    return list(MoveEntry.objects.filter(game=game).order_by("seq").values_list("text", flat=True))


def test_reload_offline_shows_the_board_and_queue_and_goes_on_logging(phone, live_server):
    game, url = table_at(live_server, 8)
    ctx, page = phone()
    posts = []
    ctx.on(
        "request",
        lambda r: posts.append(json.loads(r.post_data)) if "/entries/" in r.url else None,
    )
    page.goto(url)
    wait_until_kept(page, url)
    # One entry online: stored at once.
    log(page, 8)
    expect(page.locator("#seq")).to_have_text("9")
    expect(page.locator("#net-status")).to_have_text("Online")
    assert stored(game) == MOVES[:9]

    # No network: one entry waits, then the device is reloaded.
    ctx.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    log(page, 9)
    expect(page.locator("#net-status")).to_have_text("Offline · 1")
    page.reload()
    # The kept copy, with the state stored since (entry 9, not the 8 of the copy) and the queue.
    assert page.locator("#device").get_attribute("data-page") == "kept"
    expect(page.locator("#net-status")).to_have_text("Offline · 1")
    expect(page.locator("#seq")).to_have_text("9")
    assert board(page) == position(10)
    expect(page.locator("#turn")).to_contain_text("foreløbig")
    page.screenshot(path=str(SHOTS / "table-offline-reloaded-390.png"))

    # Logging goes on: one more entry offline (two since the network went).
    log(page, 10)
    expect(page.locator("#net-status")).to_have_text("Offline · 2")
    assert board(page) == position(11)
    assert stored(game) == MOVES[:9]

    # Back online: both are stored once, in order, after the online one.
    ctx.set_offline(False)
    expect(page.locator("#seq")).to_have_text("11", timeout=15_000)
    expect(page.locator("#net-status")).to_have_text("Online")
    assert stored(game) == MOVES[:11]
    assert [p["text"] for p in posts] == MOVES[8:11]
    assert [p["expected_seq"] for p in posts] == [8, 9, 10]
    assert len({p["client_id"] for p in posts}) == 3
    # A fresh page from the server again, no entry left waiting.
    page.reload()
    assert page.locator("#device").get_attribute("data-page") == "server"
    expect(page.locator("#net-status")).to_have_text("Online")
    expect(page.locator("#seq")).to_have_text("11")
    page.wait_for_timeout(300)
    assert stored(game) == MOVES[:11]


def test_the_qr_link_opened_again_offline_in_a_new_tab(phone, live_server):
    game, url = table_at(live_server, 8)
    ctx, page = phone()
    page.goto(url)
    wait_until_kept(page, url)
    ctx.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    log(page, 8)
    expect(page.locator("#net-status")).to_have_text("Offline · 1")
    page.close()
    # The camera app opens the link again: a new tab, no network.
    again = ctx.new_page()
    again.goto(url)
    expect(again.locator("#net-status")).to_have_text("Offline · 1")
    expect(again.locator("#seq")).to_have_text("8")
    assert board(again) == position(9)
    again.screenshot(path=str(SHOTS / "table-offline-qr-again-390.png"))
    log(again, 9)
    expect(again.locator("#net-status")).to_have_text("Offline · 2")
    ctx.set_offline(False)
    expect(again.locator("#seq")).to_have_text("10", timeout=15_000)
    assert stored(game) == MOVES[:10]


def test_the_worker_keeps_this_table_and_the_static_files_only(phone, live_server):
    _game, url = table_at(live_server, 2)
    _ctx, page = phone()
    page.goto(url)
    wait_until_kept(page, url)
    page.wait_for_timeout(6000)  # a state poll or more went through the worker
    # Only this device's own table page, and the static files of this version: no API answer.
    assert kept_pages(page) == [url]
    names = sorted(page.evaluate("() => caches.keys()"))
    static_cache = "dmp-table-static-" + offline_manifest()["version"]
    assert names == ["dmp-table-pages", static_cache]
    kept_static = page.evaluate(
        "(n) => caches.open(n).then((c) => c.keys())"
        ".then((ks) => ks.map((k) => new URL(k.url).pathname))",
        static_cache,
    )
    assert sorted(kept_static) == sorted(offline_manifest()["assets"])


def test_only_the_last_four_tables_opened_stay(phone, live_server):
    urls = [table_at(live_server, 2)[1] for _ in range(5)]
    _ctx, page = phone()
    for url in urls:
        page.goto(url)
        wait_until_kept(page, url)
    eventually(
        page,
        "() => caches.open('dmp-table-pages').then((c) => c.keys()).then((k) => k.length <= 4)",
    )
    assert kept_pages(page) == urls[1:]


def test_a_network_that_never_answers_gets_the_kept_copy(phone, live_server):
    _game, url = table_at(live_server, 8)
    ctx, page = phone()
    page.goto(url)
    wait_until_kept(page, url)
    held = []
    # The hall's Wi-Fi is connected but nothing comes back: the page's request hangs.
    ctx.route(url, lambda route: held.append(route))
    page.reload(wait_until="domcontentloaded", timeout=15_000)
    assert held, "the worker's request for the page went out"
    assert page.locator("#device").get_attribute("data-page") == "kept"
    expect(page.locator("#seq")).to_have_text("8")
    for route in held:
        route.abort()
