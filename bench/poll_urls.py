"""The site's addresses plus ``/bench/bare/<name>/`` (bench/poll_settings.py only).

The bare view answers a file's bytes as JSON through Django's whole
middleware stack, doing nothing else: the yardstick a polled answer is
measured against in ``bench/poll_load.py`` (same bytes, same stack, no work).
"""

from __future__ import annotations

import os
from pathlib import Path

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns

_bodies: dict[str, bytes] = {}


def bare(request: HttpRequest, name: str) -> HttpResponse:
    body = _bodies.get(name)
    if body is None:
        file = Path(os.environ["POLL_BARE_DIR"]) / f"{name}.json"
        if not name.isalnum() or not file.exists():
            raise Http404
        body = _bodies[name] = file.read_bytes()
    return HttpResponse(body, content_type="application/json")


urlpatterns = [path("bench/bare/<str:name>/", bare), *site_urlpatterns]
