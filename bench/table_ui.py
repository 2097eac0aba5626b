#!/usr/bin/env python
"""Benchmark of the table device: a seeded self-play game tapped through the page.

    .venv/bin/python bench/table_ui.py [--seed 7] [--entries 80] [--width 390 --height 844]

``make bench-ui`` runs it. Steps: a throw-away SQLite database in a temporary
folder (nothing else is touched), migrate, one game; gunicorn on 127.0.0.1;
Debian's Chromium headless (Playwright, never a downloaded browser) on a
phone-sized viewport, in Danish. Every entry of the record is made as a
player would: tap the card, tap the pawn (the start circle to enter; for a
7 each pawn and its steps; two pawns for a swap; the hand's cards for a
discard), a choice when the pawn has several moves, and confirm. Then the
stored log is compared with the record.

Prints JSON: taps per entry by kind (an ordinary move, entering, a move
where the pawn has a choice, a 7, a swap, a discard), window scrolls during
play, and from the confirm tap to the updated board (the frame after the
board was drawn again) and to the entry stored on the server (its number on
the page), median and p95 in ms. A benchmark, not a test: it asserts
nothing about speed (goals: <= 3 taps for an ordinary move and entering,
0 scrolls, a median confirm -> board <= 300 ms).
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import harness

ROOT = harness.ROOT
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"

# Measured in the page: the confirm tap (its event time), the first frame
# after the board was drawn again, and the entry's number shown as stored.
PROBE = """
window.__bench = { scrolls: 0, rows: [] };
let lastScroll = [0, 0];
window.addEventListener("scroll", () => {
  if (scrollX !== lastScroll[0] || scrollY !== lastScroll[1]) {
    window.__bench.scrolls += 1;
    lastScroll = [scrollX, scrollY];
  }
});
document.addEventListener("click", (ev) => {
  if (!ev.target.closest || !ev.target.closest("#confirm-move")) return;
  const row = { tap: ev.timeStamp, board: null, stored: null };
  window.__bench.rows.push(row);
  const board = document.getElementById("board");
  const seq = document.getElementById("seq");
  const was = seq.textContent;
  const drawn = new MutationObserver(() => {
    drawn.disconnect();
    requestAnimationFrame(() => { row.board = performance.now() - row.tap; });
  });
  drawn.observe(board, { childList: true, subtree: true });
  const stored = new MutationObserver(() => {
    if (seq.textContent === was) return;
    stored.disconnect();
    row.stored = performance.now() - row.tap;
  });
  stored.observe(seq, { childList: true, characterData: true, subtree: true });
}, true);
"""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=7, help="self-play game (Yellow deals)")
    parser.add_argument("--entries", type=int, default=80)
    parser.add_argument("--width", type=int, default=390)
    parser.add_argument("--height", type=int, default=844)
    return parser.parse_args()


def environment(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.local",
            "DJANGO_DEBUG": "False",
            "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
            "REDIS_URL": "",
            "VAR_DIR": str(folder),
            "LOG_LEVEL": "WARNING",
        }
    )
    # A throw-away folder has no installation key (core/secret_key.py).
    env.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(48))
    return env


def setup(env: dict[str, str], seed: int, entries: int) -> tuple[str, list[str], list[str]]:
    """Migrate and create one game: its table token, the entries to make and, for
    each, the colour it moves (a seat whose four pawns are locked moves its partner's)."""
    harness.manage(env, "migrate", "-v", "0", quiet=False)
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from games.engine import SEATS, partner_of, replay, selfplay_game
    from games.services.tokens import game_token
    from tests.factories import GameFactory

    game = GameFactory(first_dealer="Y")
    record = selfplay_game(seed, first_dealer="Y")
    moves = record["moves"][:entries]
    state = replay({**record, "moves": []}).state
    colours = []
    for text in moves:
        seat = text[0] if text[0] in SEATS else ""
        finished = seat and state.position.is_finished(seat)
        colours.append(partner_of(seat) if finished else seat)
        state, _events = state.play(text)
    return game_token(game=game), moves, colours


def stored_log(token: str) -> list[str]:
    from games.selectors import game_record_export
    from games.services.tokens import game_from_token

    return game_record_export(game=game_from_token(token=token, for_write=False))["moves"]


class Player:
    """Taps an entry into the page as a player would, counting the taps."""

    def __init__(self, page, expect) -> None:  # type: ignore[no-untyped-def]
        self.expect = expect
        self.page = page
        self.taps = 0

    def click(self, selector: str) -> None:
        box = None
        while box is None:  # the board is drawn again when the server answers
            box = self.page.locator(selector).first.bounding_box()
        self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.taps += 1

    def pawn(self, loc: str) -> None:
        self.click(f'#board .place[data-loc="{loc}"] circle')

    def entry(self, text: str, colour: str) -> str:
        """Make ``text`` ("R 7: R3+5 R9+2") for a seat moving ``colour``; returns its kind."""
        _seat, rest = text.split(" ", 1)
        card, body = rest.split(": ", 1)
        page = self.page
        if card == "X":
            self.click('#cards button[data-card="X"]')
            for shown in body.split():
                self.click(f'#cards button[data-card="{shown}"]')
            kind = "discard"
        elif card == "7":
            self.click('#cards button[data-card="7"]')
            for part in body.split():
                loc, steps = part.split("+")
                self.pawn(loc)
                self.click(f'#seven-steps button[data-steps="{steps}"]')
            kind = "seven"
        elif card == "J":
            self.click('#cards button[data-card="J"]')
            for loc in body.split("<>"):
                self.pawn(loc)
            kind = "swap"
        else:
            self.click(f'#cards button[data-card="{card}"]')
            if body == "in":
                self.pawn(colour + "H")
                kind = "enter"
            else:
                self.pawn(body.split("+")[0].split("-")[0])
                kind = "ordinary"
            if page.locator("#candidates button").count() > 1:
                self.click(f'#candidates button[data-move="{rest}"]')
                kind = "choice"
        self.expect(page.locator("#confirm-move")).to_be_enabled()
        self.click("#confirm-move")
        return kind


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    p95 = statistics.quantiles(values, n=20)[18] if len(values) > 1 else values[0]
    return {"median": round(statistics.median(values), 1), "p95": round(p95, 1)}


def play(url: str, moves: list[str], colours: list[str], width: int, height: int) -> dict:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )  # fmt: skip
        context = browser.new_context(
            locale="da-DK", timezone_id="Europe/Copenhagen",
            viewport={"width": width, "height": height},
        )  # fmt: skip
        context.add_init_script(PROBE)
        page = context.new_page()
        page.goto(url)
        player = Player(page, expect)
        taps: dict[str, list[int]] = {}
        for n, (text, colour) in enumerate(zip(moves, colours, strict=True), start=1):
            before = player.taps
            kind = player.entry(text, colour)
            taps.setdefault(kind, []).append(player.taps - before)
            expect(page.locator("#seq")).to_have_text(str(n))
        page.wait_for_timeout(200)
        measured = page.evaluate("() => window.__bench")
        scroll = page.evaluate("() => [scrollX, scrollY]")
        browser.close()
    rows = measured["rows"]
    return {
        "taps": {
            kind: {"entries": len(v), "mean": round(statistics.mean(v), 2), "max": max(v)}
            for kind, v in sorted(taps.items())
        },
        "scrolls": measured["scrolls"],
        "scroll_at_end": scroll,
        "confirm_to_board_ms": summary([r["board"] for r in rows if r["board"] is not None]),
        "confirm_to_stored_ms": summary([r["stored"] for r in rows if r["stored"] is not None]),
    }


def main() -> None:
    args = parse_args()
    if not os.path.exists(CHROMIUM):
        sys.exit(f"chromium not found at {CHROMIUM} (apt-get install -y chromium)")
    with tempfile.TemporaryDirectory(prefix="bench-ui-") as folder:
        env = environment(Path(folder))
        token, moves, colours = setup(env, args.seed, args.entries)
        port = harness.free_port()
        server = harness.start_gunicorn(env, port, ready_path="/t/", workers=1, threads=4)
        try:
            url = f"http://127.0.0.1:{port}/t/{token}/"
            result = play(url, moves, colours, args.width, args.height)
        finally:
            harness.stop(server, timeout=30)
        result = {
            "viewport": f"{args.width}x{args.height}",
            "seed": args.seed,
            "entries": len(moves),
            **result,
            "log_matches_record": stored_log(token) == moves,
        }
    harness.emit(result)


if __name__ == "__main__":
    main()
