"""The table page in headless Chromium: the 7 picker, previews from legal_effects
(online without a server round trip, and offline), judge entries in the log."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from games.engine import selfplay_game
from games.models import MoveEntry
from games.selectors import game_state, log_cache
from games.services.move_log import move_submit
from games.services.tokens import game_token
from judging.services.rulings import ruling_void
from tests.e2e.table_page import tap as tap_board
from tests.factories import GameFactory, judge_of

pytestmark = pytest.mark.django_db(transaction=True)

# Self-play game 7 with Yellow dealing: after 19 entries Blue is to move with
# pawns on B5 and G11, and "7: B5+3 G11+4" lands on B8 and hits Yellow home (C7, T2).
SEED, PREFIX, SEVEN = 7, 19, "7: B5+3 G11+4"


@pytest.fixture
def seven_table(live_server):
    log_cache.clear()
    cache.clear()
    game = GameFactory(first_dealer="Y")
    for i, text in enumerate(selfplay_game(SEED, first_dealer="Y")["moves"][:PREFIX]):
        move_submit(game=game, text=text, client_id=f"setup-{i:04d}", expected_seq=i)
    state = game_state(game=game)
    assert state.to_move == "B" and SEVEN in state.legal_entries["7"]
    return game, f"{live_server.url}/t/{game_token(game=game)}/", state


def tap(page, loc):
    tap_board(page, loc, pawn=True)


def first_part_counts(state, loc):
    """Step counts a legal 7 allows for ``loc`` as its first part."""
    return {
        int(mv.split()[1].split("+")[1])
        for mv in state.legal_entries["7"]
        if mv.split()[1].startswith(loc + "+")
    }


def enabled_steps(page):
    buttons = page.locator("#seven-steps button")
    return {
        int(buttons.nth(i).inner_text())
        for i in range(buttons.count())
        if buttons.nth(i).is_enabled()
    }


def preview_requests(page):
    sent = []
    page.on("request", lambda r: sent.append(r.url) if "/preview/" in r.url else None)
    return sent


def compose_seven(page):
    page.click('#cards button[data-card="7"]')
    expect(page.locator("#seven")).to_be_visible()
    tap(page, "B5")
    page.click('#seven-steps button[data-steps="3"]')
    expect(page.locator("#seven-text")).to_have_text("7: B5+3")
    tap(page, "G11")
    page.click('#seven-steps button[data-steps="4"]')


def test_seven_split_over_two_pawns_with_the_picker(page, seven_table):
    game, url, state = seven_table
    sent = preview_requests(page)
    page.goto(url)
    page.click('#cards button[data-card="7"]')
    expect(page.locator("#seven-left")).to_contain_text("7")
    tap(page, "B5")
    # buttons 1..7, enabled exactly where a legal 7 goes on (prefixes of legal_entries)
    expect(page.locator("#seven-steps button")).to_have_count(7)
    assert enabled_steps(page) == first_part_counts(state, "B5")
    assert page.locator("#seven-steps button.dead").count() == 7 - len(
        first_part_counts(state, "B5")
    )
    page.click('#seven-steps button[data-steps="3"]')
    expect(page.locator("#seven-text")).to_have_text("7: B5+3")
    expect(page.locator("#seven-left")).to_contain_text("4")
    # "back" removes the last part
    page.click("#seven-back")
    expect(page.locator("#seven-text")).to_have_text("7:")
    expect(page.locator("#seven-back")).to_be_disabled()
    tap(page, "B5")
    page.click('#seven-steps button[data-steps="3"]')
    # a pawn that no legal 7 can use next is refused with a message
    tap(page, "B8")
    expect(page.locator("#seven-msg")).to_be_visible()
    expect(page.locator("#seven-steps button")).to_have_count(0)
    tap(page, "G11")
    assert enabled_steps(page) == {4}
    page.click('#seven-steps button[data-steps="4"]')
    preview = page.locator("#preview")
    expect(preview).to_be_visible()
    expect(page.locator("#preview-entry")).to_have_text("B " + SEVEN)
    expect(preview.locator(".event-hit")).to_have_text("; Gul slås hjem fra B8")
    expect(preview.locator(".effect-move")).to_have_text(" — Blå: B5 → B8, G11 → Y1")
    page.click("#confirm-move")
    expect(page.locator("#seq")).to_have_text(str(PREFIX + 1))
    stored = MoveEntry.objects.filter(game=game, seq=PREFIX + 1)
    assert [e.text for e in stored] == ["B " + SEVEN]
    assert stored[0].events == [{"type": "hit", "colour": "Y", "at": "B8"}]
    assert MoveEntry.objects.filter(game=game).count() == PREFIX + 1
    # the effect came with the state: the server's preview was never asked
    assert sent == []


def test_all_splits_stay_listed_and_typing_still_works(page, seven_table):
    game, url, state = seven_table
    page.goto(url)
    page.click('#cards button[data-card="7"]')
    page.click('button[data-sheet="type"]')
    expect(page.locator("#legal-list button")).to_have_count(len(state.legal_entries["7"]))
    page.fill("#typed", "7: b5+3>B8 g11+4")
    page.click("#typed-form button[type=submit]")
    expect(page.locator("#sheet")).to_be_hidden()
    expect(page.locator("#preview .event-hit")).to_have_text("; Gul slås hjem fra B8")
    page.click("#confirm-move")
    expect(page.locator("#seq")).to_have_text(str(PREFIX + 1))
    assert MoveEntry.objects.get(game=game, seq=PREFIX + 1).text == "B " + SEVEN


def test_offline_preview_shows_destinations_and_hits(page, context, seven_table):
    game, url, _state = seven_table
    sent = preview_requests(page)
    page.goto(url)
    context.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    expect(page.locator("#net-status")).to_contain_text("Offline")
    compose_seven(page)
    lines = page.locator("#preview-lines")
    expect(lines.locator(".effect-move")).to_have_text(" — Blå: B5 → B8, G11 → Y1")
    expect(lines.locator(".event-hit")).to_have_text("; Gul slås hjem fra B8")
    # a written destination is checked on the device, in the engine's words
    page.click("#cancel-move")
    page.click('button[data-sheet="type"]')
    page.fill("#typed", "7: B5+3>B9 G11+4")
    page.click("#typed-form button[type=submit]")
    expect(page.locator("#typed-error")).to_contain_text("Trækket ender på B8, ikke på B9")
    page.click("#sheet-close")
    expect(page.locator("#preview")).to_be_hidden()
    compose_seven(page)
    page.click("#confirm-move")
    expect(page.locator("#net-status")).to_have_text("Offline · 1")
    assert MoveEntry.objects.filter(game=game).count() == PREFIX
    context.set_offline(False)
    expect(page.locator("#seq")).to_have_text(str(PREFIX + 1), timeout=15_000)
    assert list(
        MoveEntry.objects.filter(game=game, seq=PREFIX + 1).values_list("text", flat=True)
    ) == ["B " + SEVEN]
    assert sent == []


def test_voided_entry_is_struck_through_and_judge_entries_are_labelled(page, live_server):
    log_cache.clear()
    cache.clear()
    game = GameFactory(first_dealer="Y")
    moves = selfplay_game(SEED, first_dealer="Y")["moves"][:6]
    for i, text in enumerate(moves):
        move_submit(game=game, text=text, client_id=f"setup-{i:04d}", expected_seq=i)
    judge = judge_of(game.round.tournament)
    ruling_void(game=game, actor=judge, seq=6, reason="Played out of turn.")
    page.goto(f"{live_server.url}/t/{game_token(game=game)}/")
    page.click('button[data-sheet="log"]')
    voided = page.locator('#log li[data-seq="6"]')
    expect(voided).to_have_class("voided")
    expect(voided.locator("s")).to_have_text("6. " + moves[5])
    assert voided.locator("s").evaluate("n => getComputedStyle(n).textDecorationLine") == (
        "line-through"
    )
    expect(voided).to_contain_text("annulleret af en dommer")
    ruling = page.locator('#log li[data-seq="7"]')
    expect(ruling).to_have_class("judge-entry")
    expect(ruling.locator(".judge-label")).to_have_text("Dommerkendelse:")
    expect(ruling).to_contain_text("Annulleret: post 6")
    kept = page.locator('#log li[data-seq="5"]')
    expect(kept).not_to_have_class("voided")
    assert kept.locator("s").count() == 0
