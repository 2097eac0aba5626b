"""config/gc_tuning.py: web processes freeze what they load at start."""

from __future__ import annotations

import gc
import logging
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_loading_the_wsgi_application_freezes_the_startup_objects():
    # A fresh interpreter, as a gunicorn worker is: after config.wsgi is imported,
    # the objects it loaded are out of the collector's reach.
    code = (
        "import gc, os\n"
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings.test'\n"
        "before = gc.get_freeze_count()\n"
        "import config.wsgi\n"
        "from django.urls import get_resolver\n"
        "print(before, gc.get_freeze_count(), len(get_resolver().reverse_dict) > 0)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[0] == "0"
    assert int(out[1]) > 100_000  # Django, the apps, the URLs and catalogues
    assert out[2] == "True"


def test_a_web_process_is_warm_before_its_first_request():
    # The URL lookups both ways, the catalogues and the page layout are made at
    # start (and frozen with the rest), not in some visitor's first request.
    code = (
        "import os\n"
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings.test'\n"
        "import config.wsgi\n"
        "from django.template import engines\n"
        "from django.urls import get_resolver\n"
        "from django.utils.translation import trans_real\n"
        "loader = engines['django'].engine.template_loaders[0]\n"
        "print(get_resolver()._populated, sorted(trans_real._translations),\n"
        "      any('base.html' in str(key) for key in loader.get_template_cache))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert out.split()[0] == "True"
    assert "'da'" in out and "'en'" in out
    assert out.split()[-1] == "True"


def test_pause_logging_reports_collections_over_the_threshold(caplog):
    from config import gc_tuning

    before = list(gc.callbacks)
    try:
        gc_tuning._log_pauses(0.0)
        with caplog.at_level(logging.WARNING, logger="config.gc"):
            gc.collect()
        assert any("gc pause" in r.getMessage() for r in caplog.records)
    finally:
        gc.callbacks[:] = before
