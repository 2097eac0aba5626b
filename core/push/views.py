"""The push address where no ASGI process serves it (the embedded default, WSGI)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse


def push_unavailable(request: HttpRequest, kind: str, key: str) -> HttpResponse:
    """204: no stream here. EventSource does not retry a 204, so the page keeps polling."""
    return HttpResponse(status=204)
