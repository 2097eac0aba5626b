"""The round load harness's clients: table devices, spectators and judges,
doing what the pages' own scripts do, and the counts they keep.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections import defaultdict
from typing import Any

from round_load_data import SLUG

FAULT_WINDOW_S = 10.0
SLOW_MS = 250.0  # errors this soon after a fault are counted as caused by it


# --- clients -------------------------------------------------------------------


class Stats:
    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = defaultdict(list)
        # Requests sent once every client has arrived (after the ramp).
        self.steady: dict[str, list[float]] = defaultdict(list)
        self.steady_from = 0.0
        # Second of the run -> requests slower than SLOW_MS sent in it (when do stalls happen?).
        self.slow: dict[int, int] = defaultdict(int)
        self.errors: dict[str, int] = defaultdict(int)
        self.fault_errors: dict[str, int] = defaultdict(int)
        self.retries = 0
        self.faults: list[tuple[float, str]] = []
        self.start = time.monotonic()
        # (wall-clock second sent, endpoint, ms) of every answered request, to
        # tell apart the quiet stretches from the fault windows and alert waves.
        self.samples: list[tuple[float, str, float]] = []

    def record(self, endpoint: str, started: float) -> None:
        """``started`` is the request's ``time.perf_counter()`` at sending."""
        elapsed = time.perf_counter() - started
        self.latency[endpoint].append(elapsed * 1000)
        sent = time.monotonic() - elapsed
        self.samples.append((time.time() - elapsed, endpoint, elapsed * 1000))
        if sent >= self.steady_from:
            self.steady[endpoint].append(elapsed * 1000)
        if elapsed * 1000 > SLOW_MS:
            self.slow[int(sent - self.start)] += 1

    def error(self, endpoint: str) -> None:
        now = time.monotonic()
        if any(0 <= now - at <= FAULT_WINDOW_S for at, _name in self.faults):
            self.fault_errors[endpoint] += 1
        else:
            self.errors[endpoint] += 1


async def request(
    session: Any, stats: Stats, endpoint: str, method: str, url: str, **kwargs: Any
) -> tuple[int, Any]:
    import aiohttp

    started = time.perf_counter()
    try:
        async with session.request(method, url, **kwargs) as res:
            body = await res.read()
            status = res.status
    except (TimeoutError, aiohttp.ClientError, OSError):
        stats.error(endpoint)
        return 0, None
    stats.record(endpoint, started)
    if status >= 500:
        stats.error(endpoint)
    try:
        return status, json.loads(body) if body[:1] in (b"{", b"[") else None
    except ValueError:
        return status, None


async def table_client(
    session: Any,
    base: str,
    table: dict[str, Any],
    stats: Stats,
    accepted: list[dict[str, Any]],
    deadline: float,
    think: float,
    rng: random.Random,
    arrive: float,
    seen: Conditional,
) -> None:
    """Posts the table's entries as table.js does: a submission's answer brings
    the legal moves and the ETag of the state the device polls (``state_etag``),
    so the device reads its state again only if the answer has none."""
    url = f"{base}/api/table/{table['token']}/entries/"
    state_url = table_state_url(base, table["token"])
    await asyncio.sleep(arrive + rng.random() * think)
    for index, text in enumerate(table["moves"]):
        if time.monotonic() > deadline:
            return
        body = {
            "text": text,
            "client_id": f"rl-{table['game']}-{index:04d}",
            "expected_seq": len(accepted),
            "lang": "en",
        }
        give_up = time.monotonic() + 60
        while True:
            status, answer = await request(
                session, stats, "POST table entry", "POST", url, json=body
            )
            if status in (200, 201):
                accepted.append(
                    {
                        "client_id": body["client_id"],
                        "created": status == 201,
                        "seq": answer["entry"]["seq"],
                    }
                )
                if answer.get("state_etag") and answer["state"].get("legal_entries") is not None:
                    seen.etags[state_url] = answer["state_etag"]
                else:
                    seen.etags.pop(state_url, None)
                    await seen.get(session, stats, "GET table state", state_url)
                break
            if (
                status == 409
                and answer
                and answer["error"]["code"] in ("game_time_up", "game_finished")
            ):
                return  # the clock ran out (fast clock): the table stops, as in a hall
            if status in (0, 500, 502, 503, 504) and time.monotonic() < give_up:
                stats.retries += 1
                await asyncio.sleep(0.5 + rng.random())
                continue
            stats.error("POST table entry")
            return  # an answer the table cannot continue from: counted, table stops
        await asyncio.sleep(think * (0.5 + rng.random()))


def table_state_url(base: str, token: str) -> str:
    # The table page polls the last 20 entries (games.views.table_page).
    return f"{base}/api/table/{token}/state/?tail=20"


class Conditional:
    """What a browser keeps for conditional GETs: the last ETag per URL."""

    def __init__(self) -> None:
        self.etags: dict[str, str] = {}

    async def get(
        self,
        session: Any,
        stats: Stats,
        endpoint: str,
        url: str,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        sent = dict(headers or {})
        if url in self.etags:
            sent["If-None-Match"] = self.etags[url]
        status, body, etag = await request_etag(session, stats, endpoint, url, headers=sent)
        if status == 200 and etag:
            self.etags[url] = etag
        if 0 < status < 500 and status not in (200, 304):
            stats.error(endpoint)
        return status, body


async def request_etag(
    session: Any, stats: Stats, endpoint: str, url: str, headers: dict[str, str]
) -> tuple[int, Any, str | None]:
    import aiohttp

    started = time.perf_counter()
    try:
        async with session.get(url, headers=headers) as res:
            body = await res.read()
            status, etag = res.status, res.headers.get("ETag")
    except (TimeoutError, aiohttp.ClientError, OSError):
        stats.error(endpoint)
        return 0, None, None
    stats.record(endpoint, started)
    if status >= 500:
        stats.error(endpoint)
    return status, body, etag


async def every(
    deadline: float, interval: float, rng: random.Random, action: Any, *, first: bool = True
) -> None:
    """Run ``action`` every ``interval`` seconds (a browser's setInterval) until ``deadline``."""
    await asyncio.sleep(rng.random() * interval)
    if first:
        await action()
    while time.monotonic() + interval < deadline:
        await asyncio.sleep(interval)
        await action()


async def table_device(
    session: Any,
    base: str,
    table: dict[str, Any],
    stats: Stats,
    deadline: float,
    arrive: float,
    seen: Conditional,
) -> None:
    """What the table page's scripts read besides the entries it posts (static/js):
    its state every 5 s (table.js, conditional), its judge call every 5 s
    (judge_call.js) and its clock every 15 s (clock.js)."""
    rng = random.Random(table["game"] * 7)
    token = table["token"]
    await asyncio.sleep(arrive)
    await request(session, stats, "GET table page", "GET", f"{base}/t/{token}/")
    state_url = table_state_url(base, token)
    calls_url = f"{base}/api/table/{token}/judge/"
    clock_url = f"{base}/api/games/{table['game']}/clock/"
    await asyncio.gather(
        every(deadline, 5, rng, lambda: seen.get(session, stats, "GET table state", state_url)),
        every(deadline, 5, rng, lambda: seen.get(session, stats, "GET table call", calls_url)),
        every(deadline, 15, rng, lambda: seen.get(session, stats, "GET clock", clock_url)),
    )


SPECTATOR_MIX = (("pages", 0.5), ("live", 0.3), ("hall", 0.2))
"""How the ``--pollers`` spectators divide: public pages (home, pairings,
standings: the page, then its fragment every 20 s as autorefresh.js does),
one live table (state every 3 s as live.js does, its clock every 15 s) and
the hall screen (the hall API every 10 s, and every clock the page asks
clock.js to sync, every 15 s)."""

_CLOCK_URL = re.compile(r'data-clock-url="([^"]+)"')


async def spectator(
    session: Any,
    base: str,
    role: str,
    tables: int,
    stats: Stats,
    deadline: float,
    rng: random.Random,
    ramp: float,
) -> None:
    seen = Conditional()
    await asyncio.sleep(rng.random() * ramp)
    if role == "pages":
        name, path = rng.choice(
            [
                ("pairings", f"/tournaments/{SLUG}/rounds/1/"),
                ("standings", f"/tournaments/{SLUG}/standings/"),
                ("home", f"/tournaments/{SLUG}/"),
            ]
        )
        await seen.get(session, stats, f"GET {name} page", base + path)
        fragment = f"{base}{path}?fragment=1"
        await every(
            deadline,
            20,
            rng,
            lambda: seen.get(
                session, stats, f"GET {name} fragment", fragment, {"X-Requested-With": "fetch"}
            ),
            first=False,
        )
    elif role == "live":
        table = rng.randrange(1, tables + 1)
        page = f"{base}/tournaments/{SLUG}/rounds/1/tables/{table}/"
        _status, body = await seen.get(session, stats, "GET live page", page)
        game_id = _GAME_ID.search(body.decode() if isinstance(body, bytes) else "")
        if game_id is None:
            return
        state = f"{base}/api/games/{game_id[1]}/state/{game_id[2] or ''}"
        clock = f"{base}/api/games/{game_id[1]}/clock/"
        await asyncio.gather(
            every(deadline, 3, rng, lambda: seen.get(session, stats, "GET live state", state)),
            every(deadline, 15, rng, lambda: seen.get(session, stats, "GET clock", clock)),
        )
    else:
        _status, body = await seen.get(
            session, stats, "GET hall page", f"{base}/tournaments/{SLUG}/hall/"
        )
        clocks = _CLOCK_URL.findall(body.decode() if isinstance(body, bytes) else "")
        hall_api = f"{base}/api/tournaments/{SLUG}/hall/"
        await asyncio.gather(
            every(deadline, 10, rng, lambda: seen.get(session, stats, "GET hall API", hall_api)),
            *(
                every(
                    deadline,
                    15,
                    rng,
                    lambda url=url: seen.get(session, stats, "GET clock", base + url),
                )
                for url in clocks
            ),
        )


_GAME_ID = re.compile(r"/api/games/(\d+)/state/(\?tail=\d+)?")


async def judge(
    session: Any, base: str, session_key: str, stats: Stats, deadline: float, rng: random.Random
) -> None:
    """A judge dashboard: the dashboard every second (judge_dashboard.js) and the
    open calls every 2 s (judge_calls.js)."""
    headers = {"Cookie": f"sessionid={session_key}", "Accept": "application/json"}
    seen = Conditional()
    dashboard = f"{base}/api/tournaments/{SLUG}/judge/dashboard/"
    calls = f"{base}/api/tournaments/{SLUG}/judge/calls/"
    await asyncio.gather(
        every(
            deadline,
            1,
            rng,
            lambda: seen.get(session, stats, "GET judge dashboard API", dashboard, headers),
        ),
        every(
            deadline,
            2,
            rng,
            lambda: seen.get(session, stats, "GET judge calls API", calls, headers),
        ),
    )
