"""The table device draws the move on the board before it is confirmed
(headless Chromium): each moved pawn again at its landing field with an arrow,
a cross on every pawn knocked home, a diamond on both pawns of a swap, for a
hit, a swap and a split card on dm2023, fr, the printed rulebook and DUO. The
card row keeps every card's place as cards run out, and a card with no legal
move says so once and opens nothing else.

Each position is found in a self-play game by the engine (its legal entries
and their effects), set up through the service, and the move is chosen on the
page; the marks expected come from the engine's effect string.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from games.engine import get_ruleset, replay, selfplay_game
from games.engine.effects import parse_effect
from games.selectors import game_state, log_cache
from games.services.move_log import move_submit
from games.services.tokens import game_token
from tests.e2e.table_page import stored, type_move
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db(transaction=True)

ONE_SCREEN = (Path(__file__).parent / "js" / "one_screen.js").read_text()
SPLIT = {"duo": "4"}
SWAP = {"duo": "9"}
SIZES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]


@pytest.fixture(autouse=True)
def _fresh_caches():
    log_cache.clear()
    cache.clear()
    yield
    log_cache.clear()
    cache.clear()


def _moves(effect):  # type: ignore[no-untyped-def]
    return [(src, dst) for src, dst in parse_effect(effect)["moves"]]  # type: ignore[attr-defined]


def _kind_of(card, move, effect, ruleset):  # type: ignore[no-untyped-def]
    """ "hit", "swap" or "split" when the move is a clear case of it, else None."""
    moves = _moves(effect)
    lands = {to for _, to in moves if not to.endswith("H")}
    knocked = [e for e in parse_effect(effect)["events"] if e["type"] == "hit" and e["at"] in lands]
    if ": in" in move:
        return "enter"
    if "<>" in move:
        return "swap"
    if card == SPLIT.get(ruleset, "7"):
        pawns = {p.split("+")[0] for p in move.split(": ")[1].split()}
        return "split" if len(pawns) >= 2 and knocked else None
    if card != SWAP.get(ruleset, "J") and knocked:
        return "hit"
    return None


def find(ruleset, kind, seed=1):  # type: ignore[no-untyped-def]
    """The first position of self-play game ``seed`` with a legal move of ``kind``:
    (the entries before it, the move, its effect)."""
    record = selfplay_game(seed, get_ruleset(ruleset), first_dealer="Y")
    moves = record["moves"]
    for n in range(len(moves)):
        state = replay(dict(record, moves=moves[:n])).state
        entries, effects = state.legal_entries_with_effects()
        for card, listed in entries.items():
            for move, effect in zip(listed, effects[card], strict=True):
                if _kind_of(card, move, effect, ruleset) == kind:
                    return moves[:n], move, effect
    raise AssertionError(f"no {kind} in self-play game {seed} of {ruleset}")


def table(live_server, ruleset, entries):  # type: ignore[no-untyped-def]
    game = GameFactory(first_dealer="Y", round__tournament__ruleset=ruleset)
    for i, text in enumerate(entries):
        move_submit(game=game, text=text, client_id=f"setup-{i:04d}", expected_seq=i)
    return game, f"{live_server.url}/t/{game_token(game=game)}/"


@pytest.fixture
def phone(browser):
    ctx = browser.new_context(locale="da-DK", viewport=SIZES[0])
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    yield page
    ctx.close()


READ_MARKS = """() => {
  const num = (n, a) => Number(n.getAttribute(a));
  const box = (n) => {
    const b = n.getBoundingClientRect();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  const all = (sel) => [...document.querySelectorAll('#board ' + sel)];
  return {
    coords: window.PartnersBoard.coords,
    lands: all('.land-mark').map((g) => {
      const ring = g.querySelector('.land-ring');
      return {loc: g.dataset.loc, from: g.dataset.from, x: num(ring, 'cx'), y: num(ring, 'cy'),
              letter: (g.querySelector('.pawn-letter') || {}).textContent || ''};
    }),
    arrows: all('.move-arrow').map((l) => [l.dataset.from, l.dataset.to]),
    hits: all('.hit-mark').map((g) => {
      const pawn = document.querySelector('#board .pawn.is-hit[data-loc="' + g.dataset.loc + '"]');
      return {loc: g.dataset.loc, at: box(g), pawn: pawn ? box(pawn) : null};
    }),
    swaps: all('.swap-mark').map((g) => g.dataset.loc),
  };
}"""


def assert_marks(page, effect, swap=False):  # type: ignore[no-untyped-def]
    """The board shows exactly the effect: a landing mark at each landing field's
    coordinates, an arrow per moved pawn, a cross on each pawn knocked home."""
    moves = _moves(effect)
    landed = sorted((f, t) for f, t in moves if not t.endswith("H"))
    knocked = sorted(f for f, t in moves if t.endswith("H") and not f.endswith("H"))
    expect(page.locator("#board .land-mark")).to_have_count(len(landed))
    marks = page.evaluate(READ_MARKS)
    assert sorted((m["from"], m["loc"]) for m in marks["lands"]) == landed
    for m in marks["lands"]:
        x, y = marks["coords"][m["loc"]]
        assert (round(x, 2), round(y, 2)) == (m["x"], m["y"]), m
        assert m["letter"], m  # the ghost pawn carries its player's letter
    assert sorted(tuple(a) for a in marks["arrows"]) == landed
    assert sorted(h["loc"] for h in marks["hits"]) == knocked
    for h in marks["hits"]:
        assert h["pawn"] is not None, h
        assert abs(h["at"][0] - h["pawn"][0]) < 1 and abs(h["at"][1] - h["pawn"][1]) < 1, h
    if swap:
        assert sorted(marks["swaps"]) == sorted(f for f, _ in landed)
    else:
        assert marks["swaps"] == []
    return marks


CASES = [
    (ruleset, kind)
    for ruleset in ("dm2023", "fr", "rulebook", "duo")
    for kind in ("hit", "swap", "split")
] + [("dm2023", "enter"), ("duo", "enter")]


@pytest.mark.parametrize(("ruleset", "kind"), CASES)
def test_the_preview_draws_landings_hits_and_swaps_on_the_board(phone, live_server, ruleset, kind):
    seed = 2 if ruleset == "duo" else 1  # DUO game 2 has a 4 split that knocks a pawn home
    entries, move, effect = find(ruleset, kind, seed)
    game, url = table(live_server, ruleset, entries)
    seat = game_state(game=game).to_move
    phone.goto(url)
    expect(phone.locator("#board .pawn").first).to_be_visible()
    assert phone.locator("#board .land-mark, #board .hit-mark, #board .swap-mark").count() == 0
    type_move(phone, move)
    expect(phone.locator("#preview-entry")).to_have_text(f"{seat} {move}")
    marks = assert_marks(phone, effect, swap=kind == "swap")
    if kind == "enter":  # the arrow starts at the start circle (home) and ends on the start field
        assert [(a[0][-1], a[1][-1]) for a in marks["arrows"]] == [("H", "S")]
    assert phone.evaluate(ONE_SCREEN)["scroll"] == 0
    phone.screenshot(path=f"/tmp/preview_{ruleset}_{kind}.png")
    # Cancel takes the marks away; nothing was stored.
    phone.click("#cancel-move")
    expect(phone.locator("#board .land-mark")).to_have_count(0)
    expect(phone.locator("#board .hit-mark")).to_have_count(0)
    assert len(stored(game)) == len(entries)


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_a_seven_split_tapped_on_the_board_is_previewed_pawn_by_pawn(browser, live_server, size):
    from tests.e2e.test_table_picker import PREFIX, SEED

    record = selfplay_game(SEED, first_dealer="Y")
    _game, url = table(live_server, "dm2023", record["moves"][:PREFIX])
    ctx = browser.new_context(locale="da-DK", viewport=size)
    ctx.set_default_timeout(10_000)
    try:
        _seven_on(ctx.new_page(), url, size)
    finally:
        ctx.close()


def _seven_on(phone, url, size):  # type: ignore[no-untyped-def]
    from tests.e2e.test_table_picker import PREFIX, SEVEN, compose_seven

    phone.goto(url)
    compose_seven(phone)
    expect(phone.locator("#preview-entry")).to_have_text("B " + SEVEN)
    # Blue's B5 lands on B8 and knocks Yellow home from there; its G11 lands on Y1.
    marks = assert_marks(phone, "B5>B8 B8>YH G11>Y1 hY@B8")
    assert {m["loc"]: m["letter"] for m in marks["lands"]} == {"B8": "B", "Y1": "B"}
    one = phone.evaluate(ONE_SCREEN)
    assert one["scroll"] == 0 and not one["overflows"] and one["board"] and one["confirm"], one
    phone.screenshot(path=f"/tmp/preview_dm2023_seven_tapped_{size['width']}.png")
    phone.click("#confirm-move")
    expect(phone.locator("#seq")).to_have_text(str(PREFIX + 1))
    expect(phone.locator("#board .land-mark")).to_have_count(0)
    # The settings sheet says what the marks mean, in Danish.
    phone.click('button[data-sheet="type"]')
    phone.click('#sheet [role=tab][data-tab="settings"]')
    expect(phone.locator(".preview-legend")).to_contain_text("et kryds på hver brik, der slås hjem")


def _card_boxes(page):  # type: ignore[no-untyped-def]
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#cards button')].map((b) => {
          const r = b.getBoundingClientRect();
          const at = [r.x, r.y, r.width, r.height].map(Math.round);
          return [b.dataset.card, [...at, b.disabled]];
        }))"""
    )


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_the_card_row_keeps_every_cards_place_as_cards_run_out(browser, live_server, size):
    record = selfplay_game(1, first_dealer="Y")
    moves = record["moves"]
    # The first entry after which a card kind is gone (all played since the shuffle).
    before = None
    for n in range(len(moves)):
        keys = set(replay(dict(record, moves=moves[: n + 1])).state.legal_entries())
        if before is not None and before - keys and keys:
            break
        before = keys
    gone = sorted(before - keys)
    _game, url = table(live_server, "dm2023", moves[:n])
    ctx = browser.new_context(locale="da-DK", viewport=size)
    ctx.set_default_timeout(10_000)
    try:
        page = ctx.new_page()
        page.goto(url)
        expect(page.locator("#cards button")).to_have_count(15)  # 1..13, J and the discard
        first = _card_boxes(page)
        assert all(not first[c][4] for c in gone)
        text = moves[n]
        type_move(page, text.split(" ", 1)[1])
        page.click("#confirm-move")
        expect(page.locator("#seq")).to_have_text(str(n + 1))
        for c in gone:
            expect(page.locator(f'#cards button[data-card="{c}"]')).to_be_disabled()
            expect(page.locator(f'#cards button[data-card="{c}"]')).to_have_class("card gone")
        after = _card_boxes(page)
        assert {c: b[:4] for c, b in after.items()} == {c: b[:4] for c, b in first.items()}
        assert sorted(c for c, b in after.items() if b[4]) == sorted(
            c for c in after if c not in keys | {"X"}
        )
        page.screenshot(path=f"/tmp/cards_gone_{size['width']}.png")
    finally:
        ctx.close()


def test_a_card_with_no_legal_move_says_so_once_and_opens_nothing(phone, live_server):
    record = selfplay_game(1, first_dealer="Y")
    moves = record["moves"]
    # A position where the 7 is still in play but has no legal move (the split panel would open).
    for n in range(len(moves)):
        entries = replay(dict(record, moves=moves[:n])).state.legal_entries()
        if entries.get("7") == [] and any(entries.values()):
            break
    else:  # pragma: no cover - the self-play game has one
        raise AssertionError("no position without a legal 7")
    _game, url = table(live_server, "dm2023", moves[:n])
    phone.goto(url)
    phone.click('#cards button[data-card="7"]')
    expect(phone.locator("#error")).to_be_visible()
    expect(phone.locator("#error")).to_contain_text("Intet lovligt træk")
    expect(phone.locator("#seven")).to_be_hidden()
    expect(phone.locator("#hint")).to_be_hidden()
    expect(phone.locator("#candidates button")).to_have_count(0)
    # A tap on the board after it says the same, once, and still opens nothing.
    box = phone.locator("#board").bounding_box()
    phone.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.9)
    expect(phone.locator("#error")).to_be_visible()
    assert phone.locator("#tray [role=alert]:visible, #seven-msg:visible").count() == 1
    expect(phone.locator("#seven")).to_be_hidden()
    phone.screenshot(path="/tmp/no_legal_seven.png")


NAME_FITS = """() => {
  const turn = document.getElementById('turn');
  const player = turn.querySelector('.player');
  const b = player.getBoundingClientRect();
  return {text: player.textContent, clipped: player.scrollWidth > player.clientWidth + 1
          || turn.scrollWidth > turn.clientWidth + 1 || b.right > window.innerWidth + 0.5,
          height: turn.getBoundingClientRect().height};
}"""


@pytest.mark.parametrize("size", SIZES, ids=["390x844", "360x740"])
def test_long_player_names_wrap_in_the_turn_line_also_when_provisional(browser, live_server, size):
    game, url = table(live_server, "dm2023", [])
    long_red, long_blue = (
        "Thomas Kristoffer Vestergaard-Henriksen",
        "Anne-Sofie Bjerregaard Christiansen",
    )
    for person, name in ((game.pair_rg.player_1, long_red), (game.pair_yb.player_2, long_blue)):
        person.name = name
        person.save(update_fields=["name"])
    ctx = browser.new_context(locale="da-DK", viewport=size)
    ctx.set_default_timeout(10_000)
    try:
        page = ctx.new_page()
        page.goto(url)
        expect(page.locator("#turn .player")).to_have_text("· " + long_red)
        fits = page.evaluate(NAME_FITS)
        assert not fits["clipped"], fits
        assert page.evaluate(ONE_SCREEN)["scroll"] == 0
        # Offline, Red's entry waits on the device: Blue is to move provisionally.
        ctx.set_offline(True)
        type_move(page, "11: in")
        page.click("#confirm-move")
        expect(page.locator("#turn .provisional-tag")).to_be_visible()
        expect(page.locator("#turn .player")).to_have_text("· " + long_blue)
        fits = page.evaluate(NAME_FITS)
        assert not fits["clipped"], fits
        one = page.evaluate(ONE_SCREEN)
        assert one["scroll"] == 0 and not one["overflows"] and one["cards"] and one["confirm"], one
        page.screenshot(path=f"/tmp/turn_names_{size['width']}.png")
        # Back online the entry is stored (and nothing is left in flight when the test ends).
        ctx.set_offline(False)
        expect(page.locator("#seq")).to_have_text("1")
        assert stored(game) == ["R 11: in"]
    finally:
        ctx.close()
