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

from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response
from rest_framework.request import Request


def conditional_response(
    request: HttpRequest | Request, response: HttpResponse, *, etag: str
) -> HttpResponse:
    """``response`` with ``etag``, or Django's 304 (its ETag and Cache-Control
    kept, no body) when the client's ``If-None-Match`` names it."""
    response["ETag"] = etag
    answer = get_conditional_response(request, etag=etag, response=response)
    return response if answer is None else answer
