"""The judging journey in headless Chromium.

A table logs an illegal-looking move and calls a judge; the judge takes the
call on the dashboard, replays the log to the entry, voids it with a reason;
the table sees the ruling and play continues with the same seat.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine import selfplay_game
from games.models import MoveEntry
from games.selectors import log_cache
from games.services.clock import clock_start
from games.services.move_log import move_submit
from games.services.tokens import game_token
from judging.models import JudgeCall, Ruling
from tests.e2e.conftest import login
from tests.factories import GameFactory, judge_of

pytestmark = pytest.mark.django_db(transaction=True)


def active_texts(game):
    return list(
        MoveEntry.objects.filter(game=game, withdrawn_at__isnull=True)
        .order_by("seq")
        .values_list("text", flat=True)
    )


def test_call_replay_void_and_play_on(browser, context, live_server):
    log_cache.clear()
    game = GameFactory(first_dealer="Y")
    tournament = game.round.tournament
    judge_of(tournament, "dommer")
    moves = selfplay_game(7, first_dealer="Y")["moves"]
    clock_start(game=game)
    for i, text in enumerate(moves[:9]):
        move_submit(game=game, text=text, client_id=f"setup-{i:04d}", expected_seq=i)
    table = context.new_page()
    table.goto(f"{live_server.url}/t/{game_token(game=game)}/")

    # The table logs the tenth move (it looks wrong to the opponents) ...
    table.click('button[data-sheet="type"]')
    table.fill("#typed", moves[9].split(" ", 1)[1])
    table.click("#typed-form button[type=submit]")
    expect(table.locator("#preview")).to_be_visible()
    table.click("#confirm-move")
    expect(table.locator("#seq")).to_have_text("10")

    # ... and calls a judge about it, in Danish.
    table.click('button[data-sheet="judge"]')
    table.fill("#judge-call-seq", "10")
    table.fill("#judge-call-reason", "Forkert brik flyttet")
    table.click("#judge-call-button")
    expect(table.locator("#judge-call-status")).to_contain_text("venter på en dommer")
    call = JudgeCall.objects.get(game=game)
    assert call.seq == 10 and call.paused_clock

    # The judge sees the call live on the dashboard and takes it.
    judge_page = browser.new_context(locale="da-DK", timezone_id="Europe/Copenhagen").new_page()
    login(judge_page, live_server, "dommer")
    judge_page.goto(f"{live_server.url}/tournaments/{tournament.slug}/judge/")
    item = judge_page.locator(f'#judge-calls li[data-call-id="{call.pk}"]')
    expect(item).to_contain_text("Forkert brik flyttet")
    item.locator("button.take-call").click()
    expect(item).to_contain_text("dommer")
    expect(table.locator("#judge-call-status")).to_contain_text("dommer", timeout=12_000)

    # The judge replays to the entry: board, card, verdict, rule and legal moves.
    item.locator("a.review-link").click()
    expect(judge_page.locator("#entry-text")).to_have_text(moves[9])
    expect(judge_page.locator("#verdict")).to_be_visible()
    expect(judge_page.locator("#review-board .pawn").first).to_be_attached()
    judge_page.click("#nav-prev")
    expect(judge_page.locator("#entry-text")).to_have_text(moves[8])
    judge_page.click("#nav-next")
    expect(judge_page.locator("#entry-text")).to_have_text(moves[9])

    # Void with a reason: the ruling closes the call and the clock runs again.
    judge_page.click("#ruling-void > summary")
    judge_page.fill("#void-reason", "Brikken stod ikke der; trækket annulleres")
    judge_page.click("#void-submit")
    expect(judge_page.locator(".messages .success")).to_contain_text(
        "Tilkaldet er lukket, og uret kører igen."
    )
    expect(judge_page.locator("#call-box")).to_have_count(0)
    ruling = Ruling.objects.get(game=game)
    assert ruling.kind == "void" and ruling.judge.username == "dommer"
    assert active_texts(game)[-1] == "! VOID 10"

    # The table sees the ruling, and the same seat plays again.
    table.reload()
    table.click('button[data-sheet="judge"]')
    expect(table.locator("#judge-rulings")).to_contain_text("trækket annulleres")
    expect(table.locator("#judge-rulings")).to_contain_text("11. Annulleret: post 10")
    table.click('#sheet [data-tab="type"]')
    table.fill("#typed", moves[9].split(" ", 1)[1])
    table.click("#typed-form button[type=submit]")
    expect(table.locator("#preview")).to_be_visible()
    table.click("#confirm-move")
    expect(table.locator("#seq")).to_have_text("12")
    assert active_texts(game)[-1] == moves[9]
    assert JudgeCall.objects.get(pk=call.pk).status == "closed"
