"""Conditional GETs for pollers: Django's own ETag handling after the answer is known.

Each poller's answer has its own ETag, computed by the app that knows what
the answer depends on (``games.conditional.state_etag``, the judges'
``judging.selectors_polling``). The comparison with the client's
``If-None-Match`` (weak, ``*``, lists) and the 304 are Django's
``get_conditional_response``, the function behind its ``condition()``
decorator and ``ConditionalGetMiddleware``. The decorator itself does not
fit: its ``etag_func`` runs before the view, that is before the permission
check (a 304 must not tell a stranger that a judge's answer is unchanged)
and before the shared answer it would have to fetch a second time.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response
from django.utils.http import parse_etags
from rest_framework.request import Request


def conditional_response(
    request: HttpRequest | Request,
    *,
    etag: str,
    headers: dict[str, str],
    answer: Callable[[], HttpResponse],
) -> HttpResponse:
    """Django's 304 (no body) when the client's ``If-None-Match`` names ``etag``,
    else ``answer()``; either way with the ETag and ``headers``.

    The answer is only built when it is sent: most polls find nothing new."""
    not_modified = get_conditional_response(request, etag=etag)
    response = answer() if not_modified is None else not_modified
    response["ETag"] = etag
    for name, value in headers.items():
        response[name] = value
    return response


def etag_matches(if_none_match: str, etag: str) -> bool:
    """Weak comparison (RFC 9110 13.1.2) of ``etag`` with a raw If-None-Match header.

    For the layer in front of Django (``config.live_poll``), which answers from a
    shared copy before any request object exists; Django's ``parse_etags`` reads
    the header as ``get_conditional_response`` does."""
    if not if_none_match:
        return False
    tags = parse_etags(if_none_match)
    return "*" in tags or any(tag.removeprefix("W/") == etag.removeprefix("W/") for tag in tags)
