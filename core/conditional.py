"""Conditional GETs for pollers: does the client already hold this answer (ETag, 304)?

Each poller's answer has its own ETag, computed by the app that knows what
the answer depends on (``games.conditional.state_etag``, the judges'
``judging.selectors_polling``); this is the one comparison with the
client's ``If-None-Match``.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import parse_etags


def etag_matches(if_none_match: str, etag: str) -> bool:
    """Weak comparison (RFC 9110 13.1.2) of ``etag`` with an If-None-Match header."""
    if not if_none_match:
        return False
    tags = parse_etags(if_none_match)
    return "*" in tags or any(tag.removeprefix("W/") == etag.removeprefix("W/") for tag in tags)


def client_has(request: HttpRequest, etag: str) -> bool:
    """Whether ``request``'s If-None-Match names ``etag``: answer 304 without a body."""
    return etag_matches(request.headers.get("If-None-Match", ""), etag)
