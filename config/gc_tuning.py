"""Garbage-collector settings for long-running web processes.

A web process imports Django, every app, the URL configuration and the
translation catalogues once: several hundred thousand container objects that
live as long as the process. CPython's full (generation 2) collection walks
every tracked object each time, and measured in the round harness
(``bench/round_load.py``) those walks were pauses of 100-350 ms in the middle
of requests. ``freeze_startup_objects`` loads what the first requests would
load anyway, then moves everything alive to the permanent generation
(``gc.freeze``), so a full collection walks only what requests made since.

The ``GC_PAUSE_LOG_MS`` setting (from the environment, off by default) logs every collection that
took longer than that many milliseconds, with its generation: the harness
uses it to report pauses.
"""

from __future__ import annotations

import gc
import logging
import os
import time
from typing import Any

logger = logging.getLogger("config.gc")


def _warm_up() -> None:
    """What every process's first requests would do once: import every view, build
    the URL lookups both ways, read the translation catalogues and compile the
    page layout. Done here, before the first request (and again in each worker
    gunicorn starts after ``--max-requests``), it is no request's wait: each
    worker's first page took ~25-35 ms more CPU without it."""
    from django.conf import settings
    from django.template.loader import get_template
    from django.urls import get_resolver
    from django.utils import translation

    resolver = get_resolver()
    resolver.url_patterns  # noqa: B018 - imports every view module
    resolver.reverse_dict  # noqa: B018 - compiles every pattern, as reverse() would
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Yes")
    get_template("base.html")


def freeze_startup_objects() -> None:
    """Warm the process up, then exclude everything alive from future collections."""
    _warm_up()
    gc.collect()
    gc.freeze()
    from django.conf import settings

    if settings.GC_PAUSE_LOG_MS > 0:
        _log_pauses(settings.GC_PAUSE_LOG_MS)


def _log_pauses(threshold_ms: float) -> None:
    started: list[float] = [0.0]

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        ms = (time.perf_counter() - started[0]) * 1000
        if ms >= threshold_ms:
            logger.warning(
                "gc pause %.1f ms generation %s pid %s", ms, info["generation"], os.getpid()
            )

    gc.callbacks.append(callback)
