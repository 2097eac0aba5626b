"""Open a push stream on the ASGI application in the test's event loop and read its frames."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from core.push.stream import PushApp

T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: the test process may already run an
    event loop in this thread (the browser tests' Playwright keeps one for the
    whole session), and ``asyncio.run`` refuses to start inside a running loop."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class Stream:
    """One open connection: its status, and its body read frame by frame."""

    def __init__(self, app: PushApp, path: str, headers: dict[str, str]) -> None:
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.buffer = b""
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "server": ("testserver", 80),
            "client": ("127.0.0.1", 40000),
            "headers": [(b"host", b"testserver")]
            + [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        }
        self.task = asyncio.ensure_future(app(scope, self.inbox.get, self.outbox.put))

    async def status(self) -> int:
        start = await asyncio.wait_for(self.outbox.get(), 10)
        return int(start["status"])

    async def frames(self, count: int) -> list[dict[str, str]]:
        """The next ``count`` frames (comments skipped), each as its fields."""
        found: list[dict[str, str]] = []
        while len(found) < count:
            while b"\n\n" not in self.buffer:
                message = await asyncio.wait_for(self.outbox.get(), 10)
                self.buffer += message.get("body", b"")
            raw, self.buffer = self.buffer.split(b"\n\n", 1)
            fields = dict(
                line.decode().split(": ", 1)
                for line in raw.split(b"\n")
                if line and not line.startswith(b":")
            )
            if "data" in fields:
                found.append(fields)
        return found

    async def close(self) -> None:
        await self.inbox.put({"type": "http.disconnect"})
        await asyncio.wait_for(self.task, 10)
