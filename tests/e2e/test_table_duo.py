"""A Partners DUO table (docs/rulesets/duo.md) on a phone, in headless Chromium.

The board draws both players' twelve pawns (knob pawns round, hole pawns
square, each with its player's letter), the card row holds DUO cards, card →
pawn → confirm logs an entry through the server's preview (DUO has no offline
mirror), a wrong tap shows the DUO rule and its Danish text, the board turns
to the player to move, take-back works, the split 4 and the 9's swap are
made by tapping, and the live view draws the same board.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from games.engine import EngineError
from games.engine.duo import apply_move, legal_moves, replay, selfplay_game
from games.engine.ruleset import DUO
from games.selectors import log_cache
from games.services.move_log import move_submit
from games.services.tokens import game_token
from tests.e2e.conftest import login
from tests.e2e.table_page import centre, stored, tap, type_move
from tests.factories import GameFactory, judge_of

pytestmark = pytest.mark.django_db(transaction=True)

JS = Path(__file__).parent / "js"
PHONE = {"width": 390, "height": 844}
SHOTS = Path("/tmp")
DUO_CARDS = {c for c, _ in DUO.deck}
CONTRAST = (JS / "contrast.js").read_text()
ONE_SCREEN = (JS / "one_screen.js").read_text()


@pytest.fixture(autouse=True)
def _fresh_caches():
    log_cache.clear()
    cache.clear()
    yield
    log_cache.clear()
    cache.clear()


@pytest.fixture
def phone(browser):
    """A 390×844 page, closed after the test (also a failed one)."""
    ctx = browser.new_context(locale="da-DK", timezone_id="Europe/Copenhagen", viewport=PHONE)
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    page.on("dialog", lambda d: d.accept())
    yield page
    ctx.close()


def duo_game(entries=()):  # type: ignore[no-untyped-def]
    """A DUO game (Yellow deals first, so Red opens: D2) with ``entries`` stored."""
    game = GameFactory(first_dealer="Y", round__tournament__ruleset="duo")
    for i, text in enumerate(entries):
        move_submit(game=game, text=text, client_id=f"duo-setup-{i:04d}", expected_seq=i)
    return game


def table_url(live_server, game):  # type: ignore[no-untyped-def]
    return f"{live_server.url}/t/{game_token(game=game)}/"


def at_bottom(page, loc):  # type: ignore[no-untyped-def]
    """Is ``loc`` drawn in the bottom part of the board, near the middle?"""
    box = page.locator("#board").bounding_box()
    x, y = centre(page, loc)
    return (
        y > box["y"] + box["height"] * 0.6
        and abs(x - (box["x"] + box["width"] / 2)) < box["width"] * 0.2
    )


def refusal(entries, seat, move):  # type: ignore[no-untyped-def]
    """The engine's refusal of ``move`` by ``seat`` after ``entries``: (rule, Danish text)."""
    position = replay({"first_dealer": "Y", "moves": list(entries)}, DUO).position
    with pytest.raises(EngineError) as refused:
        apply_move(position, seat, move)
    return refused.value.rule, refused.value.message_da


def test_the_board_draws_both_players_twelve_pawns_and_duo_cards(phone, live_server):
    game = duo_game()
    page = phone
    page.goto(table_url(live_server, game))
    pawns = page.locator("#board .pawn")
    expect(pawns).to_have_count(12)
    # S2: three knob and three hole pawns per player; B1: four areas in board order.
    expect(page.locator("#board .pawn.seat-fill-Y")).to_have_count(6)
    expect(page.locator("#board .pawn.seat-fill-R")).to_have_count(6)
    expect(page.locator("#board .pawn.duo-K circle.body")).to_have_count(6)
    expect(page.locator("#board .pawn.duo-O rect.body")).to_have_count(6)
    letters = page.locator("#board .pawn .pawn-letter").all_text_contents()
    assert sorted(letters) == ["R"] * 6 + ["Y"] * 6
    assert page.locator("#board .area-label").all_text_contents() == ["YK", "RK", "YO", "RO"]
    expect(page.locator("#board .place.goal")).to_have_count(12)  # F1: three per area
    # Two players (S1), Red opens (D2): its knob area faces the device.
    expect(page.locator("#hands li")).to_have_count(2)
    expect(page.locator("#turn")).to_contain_text("Rød")
    assert at_bottom(page, "RKH")
    # The card row: the DUO deck (C1), without 11, 13 or J.
    shown = set(
        page.locator("#cards button[data-card]").evaluate_all("bs => bs.map(b => b.dataset.card)")
    )
    assert shown == DUO_CARDS | {"X"}
    # A card with no legal move says so (C3: only 1, 6 and 8 bring a pawn into play).
    page.click('#cards button[data-card="5"]')
    expect(page.locator("#error")).to_contain_text("Intet lovligt træk")
    expect(page.locator(".online-notice")).to_be_visible()
    # Every pawn, start circle and start field owns a 40×40 px box.
    report = page.evaluate((JS / "hit_boxes.js").read_text())
    assert report["targets"] == 8  # four start circles (every pawn is home) and four start fields
    assert report["problems"] == []
    # Texts on the board and the page meet WCAG AA; everything fits on one screen.
    assert page.evaluate(CONTRAST) == []
    assert page.evaluate(ONE_SCREEN)["scroll"] == 0
    page.screenshot(path=str(SHOTS / "duo_table_start.png"))


def test_tap_card_and_pawn_confirm_refuse_turn_and_take_back(phone, live_server):
    game = duo_game()
    page = phone
    page.goto(table_url(live_server, game))
    # Red enters a knob pawn: card 1, its home circle, confirm (C3).
    page.click('#cards button[data-card="1"]')
    tap(page, "RKH")
    expect(page.locator("#preview-entry")).to_have_text("R 1: in RK")
    page.click("#confirm-move")
    expect(page.locator("#seq")).to_have_text("1")
    assert stored(game) == ["R 1: in RK"]
    expect(page.locator('#board .pawn[data-loc="RKS"]')).to_have_count(1)
    # Yellow is to move: the board turns to Yellow's knob area.
    expect(page.locator("#turn")).to_contain_text("Gul")
    assert at_bottom(page, "YKH")
    # Yellow taps Red's pawn with a 1: the server refuses it with the DUO rule (S3).
    rule, text = refusal(["R 1: in RK"], "Y", "1: RKS+1")
    assert rule == "S3"
    page.click('#cards button[data-card="1"]')
    tap(page, "RKS", pawn=True)
    error = page.locator("#error")
    expect(error).to_contain_text(text)
    expect(error).to_contain_text(f"regel {rule}")
    expect(page.locator("#confirm-move")).to_be_disabled()
    page.screenshot(path=str(SHOTS / "duo_table_refused.png"))
    # Yellow enters a hole pawn by its start field instead.
    page.click('#cards button[data-card="6"]')
    tap(page, "YOS")
    expect(page.locator("#preview-entry")).to_have_text("Y 6: in YO")
    page.screenshot(path=str(SHOTS / "duo_table_preview.png"))
    page.click("#confirm-move")
    expect(page.locator("#seq")).to_have_text("2")
    expect(page.locator('#board .pawn.duo-O[data-loc="YOS"]')).to_have_count(1)
    assert at_bottom(page, "RKH")
    # Take-back of the table's own last entry.
    page.click('button[data-sheet="log"]')
    page.click("#take-back")
    expect(page.locator("#seq")).to_have_text("1")
    assert stored(game) == ["R 1: in RK"]
    page.click("#sheet-close")
    expect(page.locator('#board .pawn[data-loc="YOS"]')).to_have_count(0)
    expect(page.locator("#turn")).to_contain_text("Gul")


def _position_after(moves):  # type: ignore[no-untyped-def]
    return replay({"first_dealer": "Y", "moves": list(moves)}, DUO).position


def _split_and_swap():  # type: ignore[no-untyped-def]
    """Entries of a self-play game up to a turn whose player has a 4 split over two
    pawns of one area (C6) and a swap with the 9 (C5), and those two moves."""
    for seed in range(40):
        moves = selfplay_game(seed, DUO, first_dealer="Y")["moves"]
        for n in range(len(moves)):
            seat = moves[n][0]
            position = _position_after(moves[:n])
            splits = [m.text for m in legal_moves(position, seat, "4") if m.text.count("+") == 2]
            swaps = [m.text for m in legal_moves(position, seat, "9") if "<>" in m.text]
            if splits and swaps:
                return moves[:n], seat, splits[0], swaps[0]
    raise AssertionError("no self-play turn with a split 4 and a swap")


def test_the_split_4_and_the_swap_of_the_9_are_made_by_tapping(phone, live_server):
    entries, seat, split, swap = _split_and_swap()
    game = duo_game(entries)
    page = phone
    page.goto(table_url(live_server, game))
    # Pawns on the track own their 40×40 px boxes too.
    assert page.evaluate((JS / "hit_boxes.js").read_text())["problems"] == []
    # The 4: pawn, steps, pawn, steps (C6), composed as the engine writes it.
    page.click('#cards button[data-card="4"]')
    tap(page, ("R" if seat == "Y" else "Y") + "KH")  # S3: the other player's pawns
    expect(page.locator("#seven-msg")).to_have_text(
        "Ingen lovlig 4'er fortsætter med denne brik. Tryk på en anden brik, eller gå tilbage."
    )
    for part in split.split(": ")[1].split(" "):
        loc, n = part.split("+")
        tap(page, loc, pawn=True)
        page.click(f'#seven-steps button[data-steps="{n}"]')
    expect(page.locator("#preview-entry")).to_have_text(f"{seat} {split}")
    assert page.evaluate(CONTRAST) == []
    assert page.evaluate(ONE_SCREEN)["scroll"] == 0
    page.screenshot(path=str(SHOTS / "duo_table_split.png"))
    # The 9: the first pawn, then the second one makes it a swap (C5).
    page.click('#cards button[data-card="9"]')
    a, b = swap.split(": ")[1].split("<>")
    tap(page, a, pawn=True)
    tap(page, b, pawn=True)
    expect(page.locator("#preview-entry")).to_have_text(f"{seat} {swap}")
    page.click("#confirm-move")
    expect(page.locator("#seq")).to_have_text(str(len(entries) + 1))
    assert stored(game)[-1] == f"{seat} {swap}"


def test_an_offline_duo_entry_waits_and_is_checked_on_sync(phone, live_server):
    game = duo_game()
    page = phone
    page.goto(table_url(live_server, game))
    page.context.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    page.click('#cards button[data-card="8"]')
    tap(page, "ROH")
    expect(page.locator("#preview-entry")).to_have_text("R 8: in RO")
    page.click("#confirm-move")
    expect(page.locator("#net-status")).to_have_text("Offline · 1")
    assert stored(game) == []
    page.context.set_offline(False)
    expect(page.locator("#seq")).to_have_text("1", timeout=15_000)
    assert stored(game) == ["R 8: in RO"]


def test_the_live_view_draws_the_duo_board(phone, live_server):
    game = duo_game(["R 1: in RK"])
    slug, number = game.round.tournament.slug, game.round.number
    page = phone
    page.goto(f"{live_server.url}/tournaments/{slug}/rounds/{number}/tables/{game.table_number}/")
    expect(page.locator("#board .pawn")).to_have_count(12)
    expect(page.locator('#board .pawn.duo-K[data-loc="RKS"] .pawn-letter')).to_have_text("R")
    expect(page.locator("#hands li")).to_have_count(2)
    page.screenshot(path=str(SHOTS / "duo_live.png"))


def test_the_hall_counts_six_pawns_a_duo_player_locks(phone, live_server):
    game = duo_game(["R 1: in RK"])
    phone.goto(f"{live_server.url}/tournaments/{game.round.tournament.slug}/hall/")
    row = phone.locator(f'.hall-table[data-game="{game.pk}"]')
    expect(row.locator(".hall-locked")).to_have_count(2)
    for locked in row.locator(".hall-locked").all_text_contents():
        assert locked.replace("\xa0", " ").startswith("0/6 ")  # W1: six pawns a player
    # Progress counts a DUO player's own distance (W2: 6 pawns × 60 steps from home).
    for team in ("YB", "RG"):
        expect(row.locator(f'progress[data-team="{team}"]')).to_have_attribute("value", "0")
    phone.screenshot(path=str(SHOTS / "duo_hall.png"))


def test_the_winning_entry_shows_the_winning_player_and_each_players_confirmation(
    phone, live_server
):
    moves = selfplay_game(1, DUO, first_dealer="Y")["moves"]
    game = duo_game(moves[:-1])
    page = phone
    page.goto(table_url(live_server, game))
    seat, move = moves[-1].split(" ", 1)
    winner = {"Y": "Gul", "R": "Rød"}[seat]
    type_move(page, move)
    expect(page.locator("#preview-entry")).to_have_text(moves[-1])
    page.click("#confirm-move")
    # W1: all six pawns of one player on goal circles wins; singles confirm one each.
    expect(page.locator("#result-text")).to_have_text(f"{winner} har vundet")
    buttons = page.locator(".confirm-btn")
    assert buttons.all_text_contents() == ["Gul bekræfter", "Rød bekræfter"]
    page.screenshot(path=str(SHOTS / "duo_table_won.png"))
    buttons.nth(1).click()
    expect(buttons.nth(1)).to_be_disabled()
    assert game.result_confirmations.filter(pair_side="RG").exists()


def _forward_and_back():  # type: ignore[no-untyped-def]
    """Entries up to a turn whose player can move one pawn 2 forward or 2 back (C4)."""
    for seed in range(40):
        moves = selfplay_game(seed, DUO, first_dealer="Y")["moves"]
        for n in range(len(moves)):
            seat = moves[n][0]
            twos = [m.text for m in legal_moves(_position_after(moves[:n]), seat, "2")]
            back = [m for m in twos if "-" in m]
            for move in back:
                ahead = move.replace("-2", "+2")
                if ahead in twos:
                    return moves[:n], seat, ahead, move
    raise AssertionError("no self-play turn with a 2 either way")


def test_the_2_offers_its_forward_and_its_backward_move(phone, live_server):
    entries, seat, ahead, back = _forward_and_back()
    game = duo_game(entries)
    page = phone
    page.goto(table_url(live_server, game))
    page.click('#cards button[data-card="2"]')
    tap(page, back.split(": ")[1][:-2], pawn=True)
    offered = page.locator("#candidates button")
    expect(offered).to_have_count(2)
    assert sorted(offered.evaluate_all("bs => bs.map(b => b.dataset.move)")) == sorted(
        [ahead, back]
    )
    page.click(f'#candidates button[data-move="{back}"]')
    expect(page.locator("#preview-entry")).to_have_text(f"{seat} {back}")
    page.click("#confirm-move")
    expect(page.locator("#seq")).to_have_text(str(len(entries) + 1))
    assert stored(game)[-1] == f"{seat} {back}"


@pytest.mark.parametrize("size", [(360, 740), (1024, 768)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_duo_table_fits_one_screen_on_a_small_phone_and_a_tablet(browser, live_server, size):
    game = duo_game(["R 1: in RK"])
    ctx = browser.new_context(locale="da-DK", viewport={"width": size[0], "height": size[1]})
    ctx.set_default_timeout(10_000)
    try:
        page = ctx.new_page()
        page.goto(table_url(live_server, game))
        page.click('#cards button[data-card="6"]')
        tap(page, "YKH")
        expect(page.locator("#preview-entry")).to_have_text("Y 6: in YK")
        seen = page.evaluate(ONE_SCREEN)
        assert seen == {
            "scroll": 0,
            "overflows": False,
            "cards": True,
            "confirm": True,
            "board": True,
            "turn": True,
            "small": [],
        }
        page.screenshot(path=str(SHOTS / f"duo_table_{size[0]}x{size[1]}.png"))
    finally:
        ctx.close()


def test_the_judges_review_draws_the_replayed_duo_board(phone, live_server):
    game = duo_game(["R 1: in RK", "Y 8: in YO"])
    judge_of(game.round.tournament, username="dommer-duo")
    login(phone, live_server, "dommer-duo")
    phone.goto(f"{live_server.url}/tournaments/{game.round.tournament.slug}/judge/games/{game.pk}/")
    board = phone.locator("#review-board")
    expect(board.locator(".pawn")).to_have_count(12)
    expect(board.locator('.pawn.duo-O[data-loc="YOS"]')).to_have_count(1)
    expect(board.locator(".area-label")).to_have_count(4)
    phone.screenshot(path=str(SHOTS / "duo_review.png"), full_page=True)
