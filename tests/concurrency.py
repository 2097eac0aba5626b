"""Running one piece of code from several threads at once (races on PostgreSQL)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def run_threads(target: Callable[[int], object], count: int) -> list[BaseException]:
    """Call ``target(i)`` for i in range(count) in parallel threads; return their errors.

    Each thread closes its own database connection when done.
    """
    errors: list[BaseException] = []

    def wrapped(i: int) -> None:
        try:
            target(i)
        except BaseException as exc:  # reported to the test thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=wrapped, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return errors
