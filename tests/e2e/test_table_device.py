"""The table device at a real table (headless Chromium): one screen on a phone,
card → pawn → confirm, big tap targets, the engine's words for a wrong tap, a
board turned to the seat to move, offline play that shows the game, conflicts
said plainly, rulings the table cannot take back, and the end of the game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from games.engine import EngineError, replay, selfplay_game
from games.models import Game, MoveEntry
from games.selectors import game_state, log_cache
from games.services.move_log import move_submit
from games.services.tokens import game_token
from judging.services.rulings import ruling_void, ruling_warning
from tests.e2e.table_page import centre, stored, tap, type_move
from tests.factories import GameFactory, judge_of

pytestmark = pytest.mark.django_db(transaction=True)

RECORD = selfplay_game(7, first_dealer="Y")
MOVES = RECORD["moves"]
PHONES = [(390, 844), (360, 740)]
# Checks run in the page (tests/e2e/js/).
JS = Path(__file__).parent / "js"


def table_at(live_server, entries):
    """A game with the first ``entries`` entries of the self-play record, and its page URL."""
    log_cache.clear()
    cache.clear()
    game = GameFactory(first_dealer="Y")
    for i, text in enumerate(MOVES[:entries]):
        move_submit(game=game, text=text, client_id=f"setup-{i:04d}", expected_seq=i)
    return game, f"{live_server.url}/t/{game_token(game=game)}/"


@pytest.fixture
def device(browser):
    """Open the page on a device of a given size; closed after the test, also a failed one
    (a page left polling would hold up the next test's database flush)."""
    contexts = []

    def open_device(width, height):
        ctx = browser.new_context(
            locale="da-DK",
            timezone_id="Europe/Copenhagen",
            viewport={"width": width, "height": height},
        )
        ctx.set_default_timeout(10_000)
        contexts.append(ctx)
        return ctx, ctx.new_page()

    yield open_device
    for ctx in contexts:
        ctx.close()


ONE_SCREEN = (JS / "one_screen.js").read_text()


def assert_one_screen(page, step):
    seen = page.evaluate(ONE_SCREEN)
    assert seen == {
        "scroll": 0,
        "overflows": False,
        "cards": True,
        "confirm": True,
        "board": True,
        "turn": True,
        "small": [],
    }, step


@pytest.mark.parametrize("size", [*PHONES, (1024, 768)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_one_screen_at_every_step(device, live_server, size):
    # After 19 entries Blue is to move with pawns on B5 and G11 (self-play game 7).
    _game, url = table_at(live_server, 19)
    ctx, page = device(*size)
    page.goto(url)
    assert_one_screen(page, "start")
    page.click('#cards button[data-card="1"]')
    assert_one_screen(page, "card picked")
    tap(page, "B5", pawn=True)
    expect(page.locator("#candidates button")).to_have_count(2)  # 1 or 14 steps
    assert_one_screen(page, "pawn picked: two moves offered")
    page.click('#candidates button[data-move="1: B5+1"]')
    expect(page.locator("#confirm-move")).to_be_enabled()
    assert_one_screen(page, "move chosen")
    page.click('#cards button[data-card="7"]')
    tap(page, "B5", pawn=True)
    expect(page.locator("#seven-steps button")).to_have_count(7)
    assert_one_screen(page, "7: steps offered")
    page.click('#seven-steps button[data-steps="3"]')
    tap(page, "G11", pawn=True)
    page.click('#seven-steps button[data-steps="4"]')
    expect(page.locator("#preview-entry")).to_have_text("B 7: B5+3 G11+4")
    assert_one_screen(page, "7 composed")
    ctx.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    page.click("#confirm-move")
    expect(page.locator("#net-status")).to_have_text("Offline · 1")
    assert_one_screen(page, "offline, one entry waiting")


def test_three_taps_and_entering_by_the_start_field(device, live_server):
    game, url = table_at(live_server, 0)  # Red opens; every pawn is home
    _ctx, page = device(390, 844)
    page.goto(url)
    page.click('#cards button[data-card="11"]')
    expect(page.locator("#hint")).to_contain_text("startfeltet")
    tap(page, "RS")  # the start field, not the start circle
    expect(page.locator("#preview-entry")).to_have_text("R 11: in")
    page.click("#confirm-move")
    expect(page.locator("#seq")).to_have_text("1")
    # The start circle works as well.
    page.click('#cards button[data-card="8"]')
    tap(page, "BH")
    expect(page.locator("#preview-entry")).to_have_text("B 8: in")
    page.click("#confirm-move")
    expect(page.locator("#seq")).to_have_text("2")
    assert stored(game) == ["R 11: in", "B 8: in"]


def test_a_tap_off_the_pawn_still_finds_it_and_no_40px_box_has_a_dead_spot(device, live_server):
    _game, url = table_at(live_server, 19)
    _ctx, page = device(360, 740)
    page.goto(url)
    page.click('#cards button[data-card="7"]')
    # 19 px right and 19 px down of the pawn on B5: the corner of a 40x40 box.
    tap(page, "B5", 19, 19, pawn=True)
    expect(page.locator("#seven-steps button")).to_have_count(7)
    expect(page.locator("#seven-hint")).to_contain_text("(B5)")
    # Every target of the position: every point of the 40x40 box around it
    # reaches a target, and that target is never farther than this one.
    report = page.evaluate((JS / "hit_boxes.js").read_text())
    assert report["problems"] == []
    # The pawns alone on the track own their whole box (here B5, G11 and one more).
    assert report["isolated"] >= 3, report


def engine_refusal(entries, entry):
    """The engine's refusal of ``entry`` after the first ``entries`` entries."""
    with pytest.raises(EngineError) as refused:
        replay({**RECORD, "moves": MOVES[:entries]}).state.play(entry)
    return f"{refused.value.message_da} (regel {refused.value.rule})"


def test_a_tapped_pawn_that_cannot_move_gets_the_engines_rule_text(device, live_server):
    game, url = table_at(live_server, 19)
    state = game_state(game=game)
    assert "5" in state.legal_entries
    _ctx, page = device(390, 844)
    page.goto(url)
    # Blue taps its start circle with a 5: the engine refuses "5: BH+5" (C8).
    words = engine_refusal(19, "B 5: BH+5")
    assert words.endswith("(regel C8)")
    page.click('#cards button[data-card="5"]')
    tap(page, "BH")
    error = page.locator("#error")
    expect(error).to_have_text(words)
    expect(page.locator("#confirm-move")).to_be_disabled()
    # Exactly as the typed move is answered.
    type_move(page, "5: BH+5")
    expect(page.locator("#typed-error")).to_have_text(words)
    page.click("#sheet-close")
    # A pawn of another colour on the track: the engine's S3.
    other = next(loc for s in ("R", "G", "Y") for loc in state.position[s] if loc[1:].isdigit())
    page.click('#cards button[data-card="5"]')
    tap(page, other, pawn=True)
    expect(error).to_have_text(engine_refusal(19, f"B 5: {other}+5"))
    expect(error).to_contain_text("(regel S3)")
    assert stored(game) == MOVES[:19]


def hands_text(sizes):
    return "".join(f"{s}{sizes[s]}" for s in ("Y", "R", "B", "G"))


def test_offline_three_entries_across_seats_and_a_deal_sync_once_in_order(device, live_server):
    # After 8 entries Blue is to move; Blue, Yellow and then Red (the first of
    # the dealer's second deal, RULES D5) play while the device is offline.
    game, url = table_at(live_server, 8)
    ctx, page = device(390, 844)
    page.goto(url)
    posts = []
    page.on(
        "request",
        lambda r: posts.append(json.loads(r.post_data)) if "/entries/" in r.url else None,
    )
    ctx.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    for k in (8, 9, 10):
        seat = MOVES[k][0]
        expect(page.locator("#turn")).to_contain_text(
            {"Y": "Gul", "R": "Rød", "B": "Blå", "G": "Grøn"}[seat] + " i tur"
        )
        # Only that seat may play: another seat's entry is refused with the engine's D2.
        if k == 9:
            type_move(page, "R 8: in")
            expect(page.locator("#typed-error")).to_contain_text("(regel D2)")
            page.click("#sheet-close")
        type_move(page, MOVES[k].split(" ", 1)[1])
        expect(page.locator("#preview-entry")).to_have_text(MOVES[k])
        page.click("#confirm-move")
        after = replay({**RECORD, "moves": MOVES[: k + 1]}).state
        # The board, the seat to move and the hands follow the entry at once.
        expect(page.locator("#hands")).to_have_text(hands_text(after.hand_sizes))
        board = page.evaluate(
            "() => [...document.querySelectorAll('#board .pawn')].map((p) => p.dataset.loc).sort()"
        )
        assert board == sorted(loc for locs in after.position.to_json().values() for loc in locs)
        expect(page.locator("#net-status")).to_have_text(f"Offline · {k - 7}")
        expect(page.locator("#turn")).to_contain_text("foreløbig")
    assert page.locator("#board .pawn.provisional").count() > 0
    assert posts == [] and stored(game) == MOVES[:8]
    ctx.set_offline(False)
    expect(page.locator("#seq")).to_have_text("11", timeout=15_000)
    expect(page.locator("#net-status")).to_have_text("Online")
    assert stored(game) == MOVES[:11]
    assert [p["text"] for p in posts] == MOVES[8:11]  # once each, in order
    assert [p["expected_seq"] for p in posts] == [8, 9, 10]
    assert len({p["client_id"] for p in posts}) == 3
    assert page.locator("#board .pawn.provisional").count() == 0


def test_a_conflicting_offline_entry_is_shown_plainly_and_kept(device, live_server):
    game, url = table_at(live_server, 6)
    ctx, page = device(390, 844)
    page.goto(url)
    ctx.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    type_move(page, MOVES[6].split(" ", 1)[1])
    page.click("#confirm-move")
    expect(page.locator("#net-status")).to_have_text("Offline · 1")
    # Meanwhile a judge voids entry 6: its seat plays again, so the waiting entry is out of turn.
    ruling_void(game=game, actor=judge_of(game.round.tournament), seq=6, reason="Wrong pawn.")
    after_void = game_state(game=game)
    with pytest.raises(EngineError) as why:
        replay({**RECORD, "moves": [*MOVES[:6], "! VOID 6"]}).state.play(MOVES[6])
    ctx.set_offline(False)
    conflict = page.locator("#conflict")
    expect(conflict).to_be_visible(timeout=15_000)
    expect(conflict).to_contain_text("Ikke gemt: " + MOVES[6])
    expect(conflict).to_contain_text(f"{why.value.message_da} (regel {why.value.rule})")
    # Nothing stored, nothing lost: the entry waits for the players.
    assert stored(game) == [*MOVES[:6], "! VOID 6"]
    kept = page.evaluate(f"JSON.parse(localStorage.getItem('dmp-table-{game.pk}'))")
    assert kept["queue"] == [] and [r["text"] for r in kept["refused"]] == [MOVES[6]]
    expect(page.locator("#seq")).to_have_text(str(after_void.seq))
    page.click("#conflict button")
    expect(page.locator("#refused li")).to_have_count(1)
    page.click("#refused li button:has-text('Fjern')")
    expect(conflict).to_be_hidden()


def test_the_table_cannot_take_back_a_ruling(device, live_server):
    game, url = table_at(live_server, 6)
    judge = judge_of(game.round.tournament)
    _ctx, page = device(390, 844)
    page.on("dialog", lambda d: d.accept())
    page.goto(url)
    page.click('button[data-sheet="log"]')
    take_back = page.locator("#take-back")
    expect(take_back).to_be_visible()  # the table's own last entry
    # A judge rules before the device has seen it: the take-back is refused (J2).
    ruling_warning(game=game, actor=judge, seat="B", reason="P5.")
    take_back.click()
    note = page.locator("#take-back-note")
    expect(note).to_contain_text("dommerkendelse")
    expect(note).to_contain_text("(regel J2)")
    assert stored(game) == [*MOVES[:6], "! WARN B"]
    # Once the device has the ruling, the button is gone and the reason stays.
    expect(take_back).to_be_hidden(timeout=8000)
    expect(note).to_contain_text("regel J2")


def test_the_board_turns_to_the_seat_to_move_or_stays_as_chosen(device, live_server):
    _game, url = table_at(live_server, 0)
    _ctx, page = device(390, 844)
    page.goto(url)

    def at_bottom(seat):
        box = page.locator("#board").bounding_box()
        x, y = centre(page, seat + "H")
        return (
            y > box["y"] + box["height"] * 0.6
            and abs(x - (box["x"] + box["width"] / 2)) < box["width"] * 0.2
        )

    assert at_bottom("R")  # Red opens
    page.click('#cards button[data-card="11"]')
    tap(page, "RH")
    page.click("#confirm-move")
    expect(page.locator("#turn")).to_contain_text("Blå")
    assert at_bottom("B")
    page.click('button[data-sheet="type"]')
    page.click('#sheet [data-tab="settings"]')
    page.check('input[name="orientation"][value="Y"]')
    page.click("#sheet-close")
    assert at_bottom("Y")
    page.click('#cards button[data-card="8"]')
    tap(page, "BH")
    page.click("#confirm-move")
    expect(page.locator("#turn")).to_contain_text("Grøn")
    assert at_bottom("Y")  # locked: it stays
    page.reload()
    expect(page.locator("#turn")).to_contain_text("Grøn")
    assert at_bottom("Y")  # and the choice is kept on the device


CONTRAST = (JS / "contrast.js").read_text()


def test_every_text_meets_wcag_aa_contrast(device, live_server):
    _game, url = table_at(live_server, 19)
    ctx, page = device(390, 844)
    page.goto(url)
    assert page.evaluate(CONTRAST) == [], "start"
    page.click('#cards button[data-card="7"]')
    tap(page, "B5", pawn=True)
    assert page.evaluate(CONTRAST) == [], "7 picker"
    page.click('#cards button[data-card="5"]')
    tap(page, "BH")
    assert page.evaluate(CONTRAST) == [], "refusal"
    ctx.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    type_move(page, MOVES[19].split(" ", 1)[1])
    page.click("#confirm-move")
    assert page.evaluate(CONTRAST) == [], "offline"
    for tab in ("log", "judge", "type", "settings"):
        page.click(f'button[data-sheet="{"type" if tab in ("type", "settings") else tab}"]')
        page.click(f'#sheet [data-tab="{tab}"]')
        assert page.evaluate(CONTRAST) == [], tab
        page.click("#sheet-close")


def test_the_end_of_the_game_shows_the_result_and_the_confirmation_only(device, live_server):
    game, url = table_at(live_server, len(MOVES) - 1)
    _ctx, page = device(360, 740)
    page.goto(url)
    type_move(page, MOVES[-1].split(" ", 1)[1])
    page.click("#confirm-move")
    result = page.locator("#result")
    expect(result).to_be_visible()
    winner = replay(RECORD).winner
    expect(page.locator("#result-text")).to_have_text(
        {"YB": "Gul/Blå", "RG": "Rød/Grøn"}[winner] + " har vundet"
    )
    expect(page.locator("#seq")).to_have_text(str(len(MOVES)))
    last = MoveEntry.objects.get(game=game, seq=len(MOVES))
    expect(page.locator("#final-hash")).to_have_text(last.hash[:8])
    # The entry controls are gone; the confirmation step is all there is.
    for gone in ("#cards", "#confirm-move", "#cancel-move", "#tray"):
        expect(page.locator(gone)).to_be_hidden()
    assert page.evaluate(
        "() => document.getElementById('result').getBoundingClientRect().bottom <= innerHeight"
    )
    page.click('.confirm-btn[data-side="YB"]')
    expect(page.locator('.confirm-btn[data-side="YB"]')).to_be_disabled()
    page.click('.confirm-btn[data-side="RG"]')
    expect(page.locator("#result-done")).to_be_visible()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == winner
