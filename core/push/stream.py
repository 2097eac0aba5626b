"""The push endpoint: ``GET /push/<kind>/<key>/`` as a Server-Sent Events stream (ASGI).

Served by the ASGI processes (uvicorn) outside Django's middleware: an open
connection holds an asyncio task and a queue, never a thread. Django is
asked once, at subscribe time and in a worker thread, whether the visitor
(anonymous, or signed in by the session cookie) may read the channel, with
the same visibility rules as the page it belongs to (``Channels``). Then:

1. subscribe in this process's hub (so nothing published from now on is
   missed);
2. with a Last-Event-ID, send the buffered events after it, or a ``reset``
   message if the buffer no longer reaches back that far;
3. send live events, skipping any id already sent (once, in order).

Answers without a stream: 204 when push is off (no Redis: the page polls;
EventSource does not retry a 204), 404 for a channel the visitor may not
read or that does not exist, 503 when Redis cannot be reached.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections

from core.push.broker import push_enabled
from core.push.hub import BEAT, CLOSE, GAP, HEARTBEAT, frame, hub_for
from core.users import Actor

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

Authorise = Callable[[str, Actor], str | None]
"""(key from the address, visitor) -> the channel's name, or None: not for this visitor."""

PATH_PREFIX = "/push/"
RETRY = b"retry: 3000\n\n"
RESET = b'data: {"kind":"reset"}\n\n'
# As long as the public pages' own memo of an event (tournament.public_cache):
# publishing or unpublishing is honoured by new streams within a second.
ANONYMOUS_TTL = 1.0
ANONYMOUS_MEMO = 4096


def _visitor(scope: Scope) -> Actor:
    request = ASGIRequest(scope, io.BytesIO())
    engine = __import__(settings.SESSION_ENGINE, fromlist=["SessionStore"])
    request.session = engine.SessionStore(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
    return get_user(request)


def _has_session(scope: Scope) -> bool:
    name = settings.SESSION_COOKIE_NAME.encode() + b"="
    return any(key == b"cookie" and name in value for key, value in scope.get("headers", ()))


def _last_event_id(scope: Scope) -> int:
    for name, value in scope.get("headers", ()):
        if name == b"last-event-id":
            try:
                return max(0, int(value))
            except ValueError:
                return 0
    return 0


async def _plain(send: Send, status: int) -> None:
    await send({"type": "http.response.start", "status": status, "headers": []})
    await send({"type": "http.response.body", "body": b""})


class PushApp:
    """The ASGI application of ``/push/…``; ``channels`` maps a kind to its check."""

    def __init__(self, channels: dict[str, Authorise]) -> None:
        self.channels = channels
        # Anonymous visitors' answers per address, for ANONYMOUS_TTL seconds: ten
        # thousand viewers reconnecting after a restart ask the database once.
        self._anonymous: dict[str, tuple[float, str | None]] = {}

    async def _channel(self, scope: Scope) -> str | None:
        if _has_session(scope):
            return await sync_to_async(self.channel, thread_sensitive=False)(scope)
        now = time.monotonic()
        memo = self._anonymous.get(scope["path"])
        if memo is not None and memo[0] > now:
            return memo[1]
        channel = await sync_to_async(self.channel, thread_sensitive=False)(scope)
        if len(self._anonymous) >= ANONYMOUS_MEMO:
            self._anonymous.clear()  # a memo, not a store
        self._anonymous[scope["path"]] = (now + ANONYMOUS_TTL, channel)
        return channel

    def channel(self, scope: Scope) -> str | None:
        """The channel the address names if the visitor may read it (sync: Django's ORM)."""
        parts = scope["path"][len(PATH_PREFIX) :].strip("/").split("/")
        if len(parts) != 2 or parts[0] not in self.channels:
            return None
        close_old_connections()
        try:
            return self.channels[parts[0]](parts[1], _visitor(scope))
        finally:
            close_old_connections()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] not in ("GET", "HEAD"):
            await _plain(send, 405)
            return
        if not push_enabled():
            await _plain(send, 204)
            return
        channel = await self._channel(scope)
        if channel is None:
            await _plain(send, 404)
            return
        hub = hub_for(settings.REDIS_URL)
        try:
            listener = await hub.subscribe(channel)
        except Exception:
            logger.warning("push unavailable for %s", channel, exc_info=True)
            await _plain(send, 503)
            return
        watcher = asyncio.ensure_future(_watch(receive, listener.queue))
        try:
            await self._stream(scope, send, hub, listener)
        except OSError:  # the client went away mid-write
            pass
        finally:
            hub.unsubscribe(listener)
            watcher.cancel()

    async def _stream(self, scope: Scope, send: Send, hub: Any, listener: Any) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/event-stream"),
                    (b"cache-control", b"no-store"),
                    (b"x-accel-buffering", b"no"),
                ],
            }
        )
        if scope["method"] == "HEAD":
            await send({"type": "http.response.body", "body": b""})
            return
        last = _last_event_id(scope)
        missed, last = await _missed(hub, listener.channel, last) if last else (b"", 0)
        await send({"type": "http.response.body", "body": RETRY + missed, "more_body": True})
        while True:
            item = await listener.queue.get()
            if item == CLOSE:
                break
            if item == BEAT:
                chunk = HEARTBEAT
            elif item == GAP:
                chunk, last = await _missed(hub, listener.channel, last)
                if not chunk:
                    continue
            else:
                event_id, chunk = item
                if event_id <= last:
                    continue
                last = event_id
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})


async def _watch(receive: Receive, queue: asyncio.Queue[Any]) -> None:
    """Tell the stream when the client leaves."""
    while (await receive())["type"] != "http.disconnect":
        pass
    queue.put_nowait(CLOSE)


async def _missed(hub: Any, channel: str, last: int) -> tuple[bytes, int]:
    """The buffered frames after ``last`` and the newest id; a reset first if some are gone."""
    buffered = await hub.buffered(channel)
    newer = [(event_id, payload) for event_id, payload in buffered if event_id > last]
    head = RESET if buffered and buffered[0][0] > last + 1 else b""
    frames = b"".join(frame(event_id, payload) for event_id, payload in newer)
    return head + frames, (newer[-1][0] if newer else last)
