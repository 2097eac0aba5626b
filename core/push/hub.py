"""One Redis subscription per web process, fanned out to its open connections.

Every ASGI process runs one ``Hub`` on its event loop: a single pattern
subscription to every push channel, and for each channel the set of
connections listening in this process. An event is framed once (bytes) and
handed to each connection's queue; a connection that falls ``QUEUE_LIMIT``
events behind is closed (its browser reconnects and resumes from its
Last-Event-ID). When the subscription breaks, every connection is told of a
gap and reads what it missed from the channel's buffer. A heartbeat every
``HEARTBEAT_SECONDS`` keeps idle connections open through proxies.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

import redis.asyncio as aioredis

from core.push.broker import buffer_key, channel_prefix

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 20.0
QUEUE_LIMIT = 256
RECONNECT_SECONDS = 1.0
SUBSCRIBE_SECONDS = 5.0
HEARTBEAT = b": keep-alive\n\n"

# What a connection's queue carries besides events.
GAP = "gap"  # the subscription broke: read the buffer since the last id
CLOSE = "close"  # the client left, or fell too far behind
BEAT = "beat"

Item = tuple[int, bytes] | str


def frame(event_id: int, payload: bytes) -> bytes:
    """The Server-Sent Events frame of one event."""
    return b"id: %d\ndata: %s\n\n" % (event_id, payload)


def parse(raw: bytes) -> tuple[int, bytes]:
    """(id, payload) of a buffered or published event (``b"<id> <payload>"``)."""
    head, _, payload = raw.partition(b" ")
    return int(head), payload


@dataclass(eq=False)
class Listener:
    """One open connection's place in the hub."""

    channel: str
    queue: asyncio.Queue[Item] = field(default_factory=asyncio.Queue)

    def offer(self, item: Item) -> None:
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.queue.put_nowait(CLOSE)
        else:
            self.queue.put_nowait(item)


class Hub:
    """The process's subscription and its listeners, per channel."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.listeners: dict[str, set[Listener]] = {}
        self.redis = aioredis.Redis.from_url(url)
        self._tasks: list[asyncio.Task[None]] = []
        self._ready = asyncio.Event()

    def _start(self) -> None:
        if not self._tasks:
            self._tasks = [
                asyncio.ensure_future(self._listen()),
                asyncio.ensure_future(self._beat()),
            ]

    async def subscribe(self, channel: str) -> Listener:
        """A listener for ``channel``; events published from now on reach it."""
        self._start()
        listener = Listener(channel)
        self.listeners.setdefault(channel, set()).add(listener)
        try:
            await asyncio.wait_for(self._ready.wait(), SUBSCRIBE_SECONDS)
        except TimeoutError:
            self.unsubscribe(listener)
            raise
        return listener

    def unsubscribe(self, listener: Listener) -> None:
        found = self.listeners.get(listener.channel)
        if found is not None:
            found.discard(listener)
            if not found:
                del self.listeners[listener.channel]

    @property
    def connections(self) -> int:
        return sum(len(found) for found in self.listeners.values())

    async def buffered(self, channel: str) -> list[tuple[int, bytes]]:
        """The channel's buffered events, oldest first."""
        found = await self.redis.lrange(buffer_key(channel), 0, -1)
        return [parse(raw) for raw in found if isinstance(raw, bytes)]

    def _broadcast(self, item: Item) -> None:
        for found in self.listeners.values():
            for listener in found:
                listener.offer(item)

    async def _listen(self) -> None:
        prefix = channel_prefix(self.url).encode()
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(prefix + b"*")
                self._ready.set()
                while True:
                    message = await pubsub.get_message(timeout=None)
                    if message is None or message["type"] != "pmessage":
                        continue
                    found = self.listeners.get(message["channel"][len(prefix) :].decode())
                    if found:
                        event_id, payload = parse(message["data"])
                        item = (event_id, frame(event_id, payload))
                        for listener in found:
                            listener.offer(item)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("push subscription lost; resubscribing", exc_info=True)
                self._broadcast(GAP)
                await asyncio.sleep(RECONNECT_SECONDS)
            finally:
                try:
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                except Exception:  # the connection is gone already
                    logger.debug("push subscription not closed cleanly", exc_info=True)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            self._broadcast(BEAT)


_hubs: dict[tuple[int, str], Hub] = {}


def hub_for(url: str) -> Hub:
    """This event loop's hub for Redis at ``url`` (one per process in production)."""
    key = (id(asyncio.get_running_loop()), url)
    hub = _hubs.get(key)
    if hub is None:
        hub = _hubs[key] = Hub(url)
    return hub
