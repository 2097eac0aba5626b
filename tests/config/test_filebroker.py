"""The embedded default's broker (config/filebroker.py): no half-read, no lost message.

Real processes and real files: a publisher in another process races the
consumer here, and a consumer is killed with SIGKILL while it holds
messages. No Django database is involved.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from kombu import Connection

from config import filebroker
from config.filebroker import Transport

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _fresh_broker_state():
    """Each test has its own folder; kombu keeps bindings per process, not per folder."""
    Transport.global_state.clear()
    filebroker._claims = None
    yield
    Transport.global_state.clear()
    filebroker._claims = None


def _options(folder: Path) -> dict[str, object]:
    return {
        "data_folder_in": str(folder / "queue"),
        "data_folder_out": str(folder / "queue"),
        "control_folder": str(folder / "control"),
        "polling_interval": 0.01,
    }


def _connection(folder: Path) -> Connection:
    return Connection(transport=Transport, transport_options=_options(folder))


def _script(folder: Path, body: str) -> list[str]:
    """A Python child process with a connection ``conn`` to the broker in ``folder``."""
    prelude = textwrap.dedent(
        f"""
        import json, os, sys, time
        from kombu import Connection
        from config.filebroker import Transport
        conn = Connection(transport=Transport, transport_options={_options(folder)!r})
        """
    )
    return [sys.executable, "-c", prelude + textwrap.dedent(body)]


def _drain(queue, expected: int, timeout: float) -> list[dict]:  # type: ignore[no-untyped-def]
    bodies = []
    deadline = time.monotonic() + timeout
    while len(bodies) < expected and time.monotonic() < deadline:
        try:
            message = queue.get(block=True, timeout=0.5)
        except queue.Empty:
            continue
        bodies.append(message.payload)
        message.ack()
    return bodies


def test_a_consumer_racing_a_publisher_reads_every_message_whole(tmp_path):
    """Kombu's own transport hands the consumer files still being written (JSONDecodeError)."""
    count = 200
    publisher = subprocess.Popen(
        _script(
            tmp_path,
            f"""
            queue = conn.SimpleQueue("race")
            for n in range({count}):
                queue.put({{"n": n, "padding": "x" * 200_000}})
            """,
        ),
        cwd=ROOT,
    )
    with _connection(tmp_path) as conn:
        queue = conn.SimpleQueue("race")
        bodies = _drain(queue, count, timeout=120)
        queue.close()
    assert publisher.wait(timeout=60) == 0
    assert sorted(body["n"] for body in bodies) == list(range(count))
    assert all(len(body["padding"]) == 200_000 for body in bodies)
    assert not list((tmp_path / "rejected").glob("*"))


def test_messages_taken_by_a_killed_consumer_are_delivered_again(tmp_path):
    with _connection(tmp_path) as conn:
        queue = conn.SimpleQueue("work")
        for n in range(10):
            queue.put({"n": n})
        queue.close()

    # A consumer takes four messages, acknowledges one, and is killed.
    consumer = subprocess.Popen(
        _script(
            tmp_path,
            """
            queue = conn.SimpleQueue("work")
            taken = [queue.get(block=True, timeout=10) for _ in range(4)]
            taken[0].ack()
            print(json.dumps([m.payload["n"] for m in taken]), flush=True)
            time.sleep(60)
            """,
        ),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    taken = json.loads(consumer.stdout.readline())
    assert len(list((tmp_path / "claimed" / str(consumer.pid)).glob("*.msg"))) == 3
    os.kill(consumer.pid, signal.SIGKILL)
    consumer.wait(timeout=10)

    with _connection(tmp_path) as conn:
        queue = conn.SimpleQueue("work")
        again = [body["n"] for body in _drain(queue, 9, timeout=30)]
        queue.close()
    assert sorted(again) == sorted(set(range(10)) - {taken[0]})
    assert not (tmp_path / "claimed" / str(consumer.pid)).exists()


def test_a_live_consumers_messages_are_not_taken_from_it(tmp_path):
    with _connection(tmp_path) as conn:
        queue = conn.SimpleQueue("work")
        queue.put({"n": 1})
        queue.close()
    holder = subprocess.Popen(
        _script(
            tmp_path,
            """
            queue = conn.SimpleQueue("work")
            message = queue.get(block=True, timeout=10)
            print("taken", flush=True)
            time.sleep(60)
            """,
        ),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "taken"
        with _connection(tmp_path) as conn:
            queue = conn.SimpleQueue("work")
            with pytest.raises(queue.Empty):
                queue.get(block=True, timeout=1.0)
            queue.close()
        assert len(list((tmp_path / "claimed" / str(holder.pid)).glob("*.msg"))) == 1
    finally:
        holder.kill()
        holder.wait(timeout=10)


def test_an_unreadable_file_is_set_aside_and_the_next_message_delivered(tmp_path):
    with _connection(tmp_path) as conn:
        queue = conn.SimpleQueue("work")
        (tmp_path / "queue" / "00000000000000000001_broken.work.msg").write_bytes(b'{"half')
        queue.put({"n": 2})
        message = queue.get(block=True, timeout=5)
        assert message.payload == {"n": 2}
        message.ack()
        queue.close()
    assert [p.name for p in (tmp_path / "rejected").iterdir()] == [
        "00000000000000000001_broken.work.msg"
    ]


def test_acknowledged_messages_leave_nothing_behind_and_a_closed_consumer_puts_back_the_rest(
    tmp_path,
):
    with _connection(tmp_path) as conn:
        queue = conn.SimpleQueue("work")
        for n in range(3):
            queue.put({"n": n})
        first = queue.get(block=True, timeout=5)
        first.ack()
        queue.get(block=True, timeout=5)  # taken, never acknowledged
        queue.close()
    # The orderly close returned the unacknowledged message: two remain, once each.
    assert not list((tmp_path / "claimed").glob("*/*.msg"))
    assert len(list((tmp_path / "queue").glob("*.work.msg"))) == 2
    with _connection(tmp_path) as conn:
        queue = conn.SimpleQueue("work")
        rest = sorted(body["n"] for body in _drain(queue, 2, timeout=10))
        queue.close()
    assert rest == [1, 2]
