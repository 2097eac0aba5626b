"""The embedded default's Celery broker: kombu's file-system transport, made safe.

``make run`` needs a broker without an external service, and kombu's
``filesystem://`` transport is that broker: one file per message in a
folder. Upstream it has two faults that cost a club event its worker:

* **half-read messages.** A publisher creates the message file and only
  then writes it; a consumer polling the folder can move and read the file
  in between and dies on ``JSONDecodeError`` (kombu issue #1551, open).
* **lost messages.** A consumer deletes the file when it takes the
  message, before the task ran: a worker killed then (``kill -9``, a
  laptop lid, an out-of-memory kill) loses it.

This transport keeps kombu's file layout and fixes both with renames, which
are atomic within one file system:

``queue/``
    ready messages. A publisher writes the whole file under ``staging/``
    and renames it into ``queue/``, so a consumer only ever sees complete
    files.
``claimed/<pid>/``
    messages taken by the consumer process ``<pid>`` and not yet
    acknowledged. Taking a message is a rename into this folder (two
    consumers racing for one file: one rename wins); the acknowledgement
    deletes it. Each consumer holds an exclusive ``flock`` on its folder's
    ``.lock`` for its lifetime; the kernel drops that lock when the process
    dies however it dies, so the next consumer that starts finds the folder
    unlocked and renames its messages back into ``queue/``: delivered at
    least once. Every task here is idempotent (docs/clock.md).
``rejected/``
    a file that is not a message (a disk that filled up, a hand-edited
    file) is moved here and logged instead of stopping the worker.

POSIX only (``flock``, atomic ``rename``), like the rest of ``make run``.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import time
import uuid
from pathlib import Path
from queue import Empty
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem, virtual
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads
from kombu.utils.objects import cached_property

logger = logging.getLogger(__name__)

LOCK_NAME = ".lock"


class _Claims:
    """This process's ``claimed/<pid>/`` folder and the lock that proves it alive."""

    def __init__(self, root: Path) -> None:
        self.pid = os.getpid()
        self.folder = root / str(self.pid)
        self.folder.mkdir(parents=True, exist_ok=True)
        # Kept open for the life of the process: the lock is the liveness proof.
        self.lock = open(self.folder / LOCK_NAME, "a")  # noqa: SIM115
        fcntl.flock(self.lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


_claims: _Claims | None = None


def _claims_for(root: Path) -> _Claims:
    global _claims
    if _claims is None or _claims.pid != os.getpid():  # a forked child claims for itself
        _claims = _Claims(root)
    return _claims


def requeue_abandoned(*, claimed: Path, queue: Path) -> int:
    """Put back into ``queue`` every message claimed by a consumer that has died.

    A folder whose lock can be taken belongs to a dead process. Returns how
    many messages went back.
    """
    if not claimed.is_dir():
        return 0
    returned = 0
    for folder in claimed.iterdir():
        lock_path = folder / LOCK_NAME
        if not folder.is_dir() or not lock_path.exists():
            continue
        with open(lock_path, "a") as lock:
            try:
                fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # its consumer is alive
            for message in folder.glob("*.msg"):
                with contextlib.suppress(FileNotFoundError):
                    os.replace(message, queue / message.name)
                    returned += 1
            with contextlib.suppress(OSError):
                lock_path.unlink()
                folder.rmdir()
    if returned:
        logger.warning("Returned %d messages of a stopped worker to the queue.", returned)
    return returned


class QoS(virtual.QoS):
    """Acknowledging (or rejecting) a message deletes its claimed file."""

    def ack(self, delivery_tag: str) -> None:
        self.channel.release(delivery_tag)
        super().ack(delivery_tag)

    def reject(self, delivery_tag: str, requeue: bool = False) -> None:
        super().reject(delivery_tag, requeue=requeue)
        self.channel.release(delivery_tag)


class Channel(filesystem.Channel):
    QoS = QoS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._claimed: dict[str, Path] = {}
        self._no_ack_queues: set[str] = set()
        self._requeued_abandoned = False
        # kombu lists and sizes the queue folder before anything is published.
        self.queue_folder  # noqa: B018
        self.control_folder.mkdir(parents=True, exist_ok=True)

    @cached_property
    def queue_folder(self) -> Path:
        return self._folder(self.transport_options.get("data_folder_in", "queue"))

    @cached_property
    def staging_folder(self) -> Path:
        return self._folder(self.queue_folder.parent / "staging")

    @cached_property
    def claimed_root(self) -> Path:
        return self._folder(self.queue_folder.parent / "claimed")

    @cached_property
    def rejected_folder(self) -> Path:
        return self._folder(self.queue_folder.parent / "rejected")

    @staticmethod
    def _folder(path: str | Path) -> Path:
        folder = Path(path)
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    # kombu names the second argument "payload" here and "message" in its base
    # class; ours follows the filesystem channel it replaces.
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        tag = payload.get("properties", {}).get("delivery_tag") or uuid.uuid4().hex
        # Sorted by name = first in, first out; the name before the first
        # dot has no dot, so kombu's "<prefix>.<queue>.msg" parsing holds.
        name = f"{time.time_ns():020d}_{tag}.{queue}.msg"
        staged = self.staging_folder / name
        try:
            with open(staged, "xb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(staged, self.queue_folder / name)
        except OSError as exc:
            with contextlib.suppress(OSError):
                staged.unlink()
            raise ChannelError(f"Cannot add message {name!r} to the queue") from exc

    def _get(self, queue: str, timeout: float | None = None) -> dict[str, Any]:
        # ``timeout`` is kombu's for blocking transports: a folder answers at once.
        claims = _claims_for(self.claimed_root)
        if not self._requeued_abandoned:
            self._requeued_abandoned = True
            requeue_abandoned(claimed=self.claimed_root, queue=self.queue_folder)
        suffix = f"{queue}.msg"
        for name in sorted(os.listdir(self.queue_folder)):
            if name.partition(".")[2] != suffix:
                continue
            claimed = claims.folder / name
            try:
                os.rename(self.queue_folder / name, claimed)
            except FileNotFoundError:
                continue  # another consumer took it first
            payload = self._read(claimed)
            if payload is None:
                continue
            tag = payload.get("properties", {}).get("delivery_tag")
            if tag and queue not in self._no_ack_queues:
                self._claimed[tag] = claimed
            else:
                claimed.unlink(missing_ok=True)
            return payload
        raise Empty()

    def _read(self, claimed: Path) -> dict[str, Any] | None:
        try:
            payload = loads(bytes_to_str(claimed.read_bytes()))
            if not isinstance(payload, dict):
                raise ValueError("not a message")
        except (OSError, ValueError) as exc:
            rejected = self.rejected_folder / claimed.name
            with contextlib.suppress(OSError):
                os.replace(claimed, rejected)
            logger.error("Unreadable broker message moved to %s: %s", rejected, exc)
            return None
        return payload

    def release(self, delivery_tag: str) -> None:
        """The message is done with (acknowledged, rejected or put back): forget its file."""
        claimed = self._claimed.pop(delivery_tag, None)
        if claimed is not None:
            claimed.unlink(missing_ok=True)

    def _restore(self, message: Any) -> None:
        # Put back in the queue (a requeue, a worker's orderly shutdown):
        # the copy in queue/ replaces the claimed one.
        super()._restore(message)
        self.release(message.delivery_tag)

    def basic_consume(self, queue: str, no_ack: bool, *args: Any, **kwargs: Any) -> Any:
        # Messages consumed without acknowledgement (the worker's remote
        # control) are never acked, so they must not stay claimed.
        if no_ack:
            self._no_ack_queues.add(queue)
        else:
            self._no_ack_queues.discard(queue)
        return super().basic_consume(queue, no_ack, *args, **kwargs)

    def basic_get(self, queue: str, no_ack: bool = False, **kwargs: Any) -> Any:
        message = super().basic_get(queue, no_ack=no_ack, **kwargs)
        if message is not None and no_ack:
            self.release(message.delivery_tag)
        return message


class Transport(filesystem.Transport):
    Channel = Channel
    global_state = virtual.BrokerState()

    @property
    def default_connection_params(self) -> dict[str, Any]:
        # A folder, not a host: without a hostname to fall back on, kombu does
        # not warn "No hostname was supplied" on every connection.
        return {"port": self.default_port}
