"""The push stream: every event once and in order, resumed from Last-Event-ID, closed on leave.

Needs Redis (REDIS_URL); the broker's publish is the real one.
"""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest
from django.conf import settings

from core.push import broker
from core.push.stream import PushApp
from tests.core.push.asgi_client import Stream, run_async

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)")


def _app(channel: str) -> PushApp:
    return PushApp({"test": lambda key, visitor: channel if key == "open" else None})


@pytest.fixture
def channel() -> str:
    return f"test:{uuid.uuid4().hex}"


@pytest.fixture(autouse=True)
def _fresh_publisher() -> None:
    broker.forget_publisher()


def _publish(channel: str, count: int) -> list[int]:
    return [broker.publish(channel, f"move{n}") for n in range(count)]  # type: ignore[misc]


def test_each_event_reaches_an_open_stream_once_and_in_order(channel: str) -> None:
    async def run() -> list[dict[str, str]]:
        stream = Stream(_app(channel), "/push/test/open/", {})
        assert await stream.status() == 200
        await asyncio.sleep(0.2)  # subscribed
        ids = await asyncio.to_thread(_publish, channel, 5)
        frames = await stream.frames(5)
        await stream.close()
        assert [int(f["id"]) for f in frames] == ids
        return frames

    frames = run_async(run())
    assert [json.loads(f["data"])["kind"] for f in frames] == [f"move{n}" for n in range(5)]
    ids = [int(f["id"]) for f in frames]
    assert ids == sorted(set(ids)) and ids[-1] - ids[0] == 4


def test_a_reconnect_resumes_after_its_last_event_id(channel: str) -> None:
    ids = _publish(channel, 4)

    async def run() -> list[dict[str, str]]:
        stream = Stream(_app(channel), "/push/test/open/", {"Last-Event-ID": str(ids[1])})
        assert await stream.status() == 200
        missed = await stream.frames(2)
        later = await asyncio.to_thread(_publish, channel, 1)
        live = await stream.frames(1)
        await stream.close()
        assert int(live[0]["id"]) == later[0]
        return missed + live

    frames = run_async(run())
    assert [int(f["id"]) for f in frames][:2] == ids[2:]
    assert [json.loads(f["data"])["kind"] for f in frames] == ["move2", "move3", "move0"]


def test_a_resume_beyond_the_buffer_says_reset(channel: str) -> None:
    ids = _publish(channel, broker.BUFFER_SIZE + 3)

    async def run() -> list[dict[str, str]]:
        stream = Stream(_app(channel), "/push/test/open/", {"Last-Event-ID": str(ids[0])})
        assert await stream.status() == 200
        frames = await stream.frames(2)
        await stream.close()
        return frames

    reset, first = run_async(run())
    assert json.loads(reset["data"]) == {"kind": "reset"} and "id" not in reset
    assert int(first["id"]) == ids[3]


def test_a_fresh_stream_replays_nothing(channel: str) -> None:
    _publish(channel, 3)

    async def run() -> list[dict[str, str]]:
        stream = Stream(_app(channel), "/push/test/open/", {})
        assert await stream.status() == 200
        await asyncio.sleep(0.2)
        later = await asyncio.to_thread(_publish, channel, 1)
        frames = await stream.frames(1)
        await stream.close()
        assert int(frames[0]["id"]) == later[0]
        return frames

    run_async(run())


def test_an_event_carries_its_kind_and_time_only(channel: str) -> None:
    (event_id,) = _publish(channel, 1)
    import redis

    raw = redis.Redis.from_url(settings.REDIS_URL).lrange(broker.buffer_key(channel), 0, -1)
    head, payload = raw[-1].split(b" ", 1)
    assert int(head) == event_id
    assert set(json.loads(payload)) == {"kind", "at"}


def test_one_call_publishes_on_every_channel_of_a_change(channel: str, monkeypatch) -> None:
    """A move goes to its table's channel and its event's in one round trip; each
    channel keeps its own ids and buffer, as if published on its own."""
    import redis

    other = f"{channel}:event"
    first = _publish(channel, 2)
    calls = []
    real = broker._publisher

    def counted():
        script = real()

        def call(**kwargs):
            calls.append(kwargs["keys"])
            return script(**kwargs)

        return call

    monkeypatch.setattr(broker, "_publisher", counted)
    table_id, event_id = broker.publish_many([(channel, "move"), (other, "tables")])
    assert len(calls) == 1 and len(calls[0]) == 6
    assert table_id == first[-1] + 1 and event_id is not None
    raw = redis.Redis.from_url(settings.REDIS_URL)
    for name, event, kind in ((channel, table_id, "move"), (other, event_id, "tables")):
        head, payload = raw.lrange(broker.buffer_key(name), -1, -1)[0].split(b" ", 1)
        assert int(head) == event and json.loads(payload)["kind"] == kind
    assert raw.llen(broker.buffer_key(channel)) == 3 and raw.llen(broker.buffer_key(other)) == 1


def test_a_closed_connection_leaves_the_hub(channel: str) -> None:
    from core.push.hub import hub_for

    async def run() -> tuple[int, int]:
        stream = Stream(_app(channel), "/push/test/open/", {})
        assert await stream.status() == 200
        await asyncio.sleep(0.1)
        hub = hub_for(settings.REDIS_URL)
        during = hub.connections
        await stream.close()
        return during, hub.connections

    assert run_async(run()) == (1, 0)


def test_a_channel_not_for_the_visitor_is_404(channel: str) -> None:
    async def run() -> int:
        stream = Stream(_app(channel), "/push/test/closed/", {})
        status = await stream.status()
        await asyncio.wait_for(stream.task, 5)
        return status

    assert run_async(run()) == 404


def test_without_redis_the_stream_answers_204(settings: object, channel: str) -> None:
    settings.REDIS_URL = ""  # type: ignore[attr-defined]

    async def run() -> int:
        stream = Stream(_app(channel), "/push/test/open/", {})
        status = await stream.status()
        await asyncio.wait_for(stream.task, 5)
        return status

    assert run_async(run()) == 204


@pytest.mark.django_db(transaction=True)  # a session cookie is looked up
def test_anonymous_visitors_are_checked_once_a_second_signed_in_ones_every_time(
    channel: str,
) -> None:
    asked: list[str] = []

    def check(key: str, visitor: object) -> str:
        asked.append(key)
        return channel

    app = PushApp({"test": check})

    async def run(headers: dict[str, str]) -> None:
        stream = Stream(app, "/push/test/open/", headers)
        assert await stream.status() == 200
        await stream.close()

    for _ in range(3):
        run_async(run({}))
    assert len(asked) == 1
    for _ in range(2):
        run_async(run({"Cookie": f"{settings.SESSION_COOKIE_NAME}=nosuchsession"}))
    assert len(asked) == 3


def test_a_broken_subscription_is_caught_up_from_the_buffer_once(channel: str) -> None:
    import redis

    from core.push.hub import GAP, hub_for

    async def run() -> list[dict[str, str]]:
        stream = Stream(_app(channel), "/push/test/open/", {})
        assert await stream.status() == 200
        await asyncio.sleep(0.2)
        (first,) = await asyncio.to_thread(_publish, channel, 1)
        await stream.frames(1)
        # Events the subscription missed while it was down are only in the buffer.
        store = redis.Redis.from_url(settings.REDIS_URL)
        for n in (1, 2):
            store.rpush(broker.buffer_key(channel), f'{first + n} {{"kind":"missed{n}"}}')
        for listener in hub_for(settings.REDIS_URL).listeners[channel]:
            listener.offer(GAP)
            listener.offer(GAP)  # told twice: still sent once
        store.set(broker.counter_key(channel), first + 2)
        frames = await stream.frames(2)
        (live,) = await asyncio.to_thread(_publish, channel, 1)
        frames += await stream.frames(1)  # a repeat of the missed ones would come first
        await stream.close()
        assert [int(f["id"]) for f in frames] == [first + 1, first + 2, live]
        return frames

    frames = run_async(run())
    assert [json.loads(f["data"])["kind"] for f in frames] == ["missed1", "missed2", "move0"]


def test_another_databases_events_on_the_same_server_never_reach_a_stream(
    settings: object, channel: str
) -> None:
    """Redis pub/sub ignores the database number: a site (or a test run) on another
    database of the same server publishing the same channel name must not be heard.
    Heard, its higher ids would also make the stream skip this site's own events."""
    here = settings.REDIS_URL  # type: ignore[attr-defined]
    base, _, number = here.rpartition("/")
    other = f"{base}/{(int(number) + 1) % 16 if number.isdigit() else 1}"

    def publish_on(url: str, kind: str) -> int:
        settings.REDIS_URL = url  # type: ignore[attr-defined]
        broker.forget_publisher()
        try:
            return broker.publish(channel, kind)  # type: ignore[return-value]
        finally:
            settings.REDIS_URL = here  # type: ignore[attr-defined]
            broker.forget_publisher()

    async def run() -> list[dict[str, str]]:
        stream = Stream(_app(channel), "/push/test/open/", {})
        assert await stream.status() == 200
        await asyncio.sleep(0.2)
        import redis

        # The other site's counter is far ahead of this one's.
        redis.Redis.from_url(other).set(broker.counter_key(channel), 10**17)
        await asyncio.to_thread(publish_on, other, "elsewhere")
        mine = await asyncio.to_thread(publish_on, here, "here")
        frames = await stream.frames(1)
        await stream.close()
        redis.Redis.from_url(other).delete(broker.counter_key(channel), broker.buffer_key(channel))
        assert int(frames[0]["id"]) == mine
        return frames

    (frame,) = run_async(run())
    assert json.loads(frame["data"])["kind"] == "here"
