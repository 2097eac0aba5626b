"""Several devices hammering one table at once, on real PostgreSQL."""

from __future__ import annotations

import threading

import pytest

from core.errors import ApplicationError
from games.models import MoveEntry
from games.selectors import game_state, move_log_verify
from games.services.move_log import move_submit
from tests.concurrency import run_threads
from tests.factories import GameFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

N_MOVES = 60
THREADS = 6


def test_racing_devices_append_each_move_exactly_once(require_postgres, record):
    game = GameFactory(first_dealer="Y")
    moves = record["moves"][:N_MOVES]
    outcomes = {"created": 0, "stale": 0}
    lock = threading.Lock()

    def device(i):
        while True:
            seq = game_state(game=game, with_entries=False).seq
            if seq >= N_MOVES:
                return
            try:
                result = move_submit(
                    game=game, text=moves[seq], client_id=f"dev{i}-{seq:04d}", expected_seq=seq
                )
            except ApplicationError as exc:
                assert exc.code == "stale_sequence", exc.to_json()
                with lock:
                    outcomes["stale"] += 1
                continue
            with lock:
                outcomes["created"] += int(result.created)

    errors = run_threads(device, THREADS)
    assert not errors, errors
    active = list(MoveEntry.objects.filter(game=game, withdrawn_at__isnull=True).order_by("seq"))
    assert [e.seq for e in active] == list(range(1, N_MOVES + 1))
    assert [e.text for e in active] == moves
    assert outcomes["created"] == N_MOVES
    assert MoveEntry.objects.filter(game=game).count() == N_MOVES
    assert move_log_verify(game=game).ok


def test_the_same_entry_sent_by_many_threads_is_stored_once(require_postgres):
    game = GameFactory(first_dealer="Y")
    created = []
    lock = threading.Lock()
    barrier = threading.Barrier(THREADS)

    def retry(_i):
        barrier.wait()
        result = move_submit(game=game, text="11: in", client_id="same-entry-1", expected_seq=0)
        with lock:
            created.append(result.created)

    errors = run_threads(retry, THREADS)
    assert not errors, errors
    assert sorted(created) == [False] * (THREADS - 1) + [True]
    assert MoveEntry.objects.filter(game=game).count() == 1
