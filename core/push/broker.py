"""Publishing a change to a push channel: one id, a short replay buffer, one PUBLISH.

A channel is a name such as ``table:12`` or ``event:7``. Each publish runs one
Lua script in Redis (one call for all the channels a change concerns, one
round trip after a move), so the id, the buffer and the message can never
disagree: the id is the channel's next number (started at the time in
microseconds, so a lost counter never goes back), the event is kept in the
channel's buffer (the last ``BUFFER_SIZE``, for clients resuming from their
Last-Event-ID) and published to every web process holding connections.

The payload is the kind of change and when it was published, nothing else:
no name, no move, no score. Without ``REDIS_URL`` nothing is published (the
embedded default polls; docs/push.md). A Redis outage is logged, never
raised: the action that changed something must not fail for its viewers.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any
from urllib.parse import parse_qs, urlparse

import redis
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

PREFIX = "push"
BUFFER_SIZE = 64
BUFFER_SECONDS = 24 * 60 * 60

# One call publishes on every channel a change concerns (a move: its table's
# and its event's), in one round trip. KEYS: counter, buffer and pub/sub channel
# of each channel in turn. ARGV: start value, size, ttl, then each payload.
_PUBLISH = """
local ids = {}
for n = 1, #KEYS / 3 do
  local counter, buffer, channel = KEYS[3 * n - 2], KEYS[3 * n - 1], KEYS[3 * n]
  if redis.call('EXISTS', counter) == 0 then redis.call('SET', counter, ARGV[1]) end
  local id = redis.call('INCR', counter)
  redis.call('EXPIRE', counter, ARGV[3])
  local event = string.format('%.0f', id) .. ' ' .. ARGV[3 + n]
  redis.call('RPUSH', buffer, event)
  redis.call('LTRIM', buffer, -tonumber(ARGV[2]), -1)
  redis.call('EXPIRE', buffer, ARGV[3])
  redis.call('PUBLISH', channel, event)
  ids[n] = id
end
return ids
"""

_client: Any = None
_script: Any = None
_lock = threading.Lock()


def push_enabled() -> bool:
    """Whether changes are pushed at all (a shared Redis to carry them)."""
    return bool(getattr(settings, "REDIS_URL", ""))


def counter_key(channel: str) -> str:
    return f"{PREFIX}:seq:{channel}"


def buffer_key(channel: str) -> str:
    return f"{PREFIX}:buf:{channel}"


def channel_prefix(url: str) -> str:
    """The pub/sub channels' prefix for Redis at ``url``. Redis keeps keys per
    database, but a PUBLISH reaches every subscriber of the server whatever its
    database: the database's number keeps two sites (or two test runs) that share
    a server from hearing, and skipping by id, each other's events."""
    parsed = urlparse(url)  # as redis-py reads it: ?db=N, else the path, else 0
    database = parse_qs(parsed.query).get("db", [parsed.path.strip("/") or "0"])[0]
    return f"{PREFIX}:{database}:ch:"


def pubsub_channel(channel: str) -> str:
    return channel_prefix(settings.REDIS_URL) + channel


def _publisher() -> Any:
    global _client, _script
    with _lock:
        if _client is None:
            _client = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2
            )
            _script = _client.register_script(_PUBLISH)
        return _script


def forget_publisher() -> None:
    """Drop the connection (tests that change REDIS_URL)."""
    global _client, _script
    with _lock:
        if _client is not None:
            _client.close()
        _client = _script = None


def publish(channel: str, kind: str) -> int | None:
    """Publish a change of ``kind`` on ``channel`` now; its id, or None if not pushed."""
    return publish_many([(channel, kind)])[0]


def publish_many(events: list[tuple[str, str]]) -> list[int | None]:
    """Publish each ``(channel, kind)`` now, in one round trip; their ids (None if not pushed)."""
    if not push_enabled() or not events:
        return [None] * len(events)
    at = round(time.time(), 4)
    keys: list[str] = []
    payloads: list[str] = []
    for channel, kind in events:
        keys += [counter_key(channel), buffer_key(channel), pubsub_channel(channel)]
        payloads.append(json.dumps({"kind": kind, "at": at}, separators=(",", ":")))
    try:
        script = _publisher()
        start = time.time_ns() // 1000
        ids = script(keys=keys, args=[start, BUFFER_SIZE, BUFFER_SECONDS, *payloads])
        return [int(event_id) for event_id in ids]
    except Exception:  # viewers fall back to polling; the change itself stands
        logger.warning("push of %s failed", events, exc_info=True)
        return [None] * len(events)


def publish_on_commit(*events: tuple[str, str]) -> None:
    """Publish each ``(channel, kind)`` once the current transaction commits, together
    (nothing if it rolls back)."""
    if push_enabled() and events:
        transaction.on_commit(lambda: publish_many(list(events)))
