"""What a view tells the WSGI fast path (``config.public_fastpath``) about its answer.

A view marks an anonymous GET's answer with ``X-Public-Cacheable``: ``1``
(keep it until the tournament's data version changes) or ``max-age=N``
(keep it at most N seconds). The fast path strips the mark before the answer
leaves the server. ``X-Server-Time`` says when an answer was made; the fast
path renews it on every copy it serves. The page caches themselves live
with the data whose version keys them (``tournament.public_cache``).
"""

from __future__ import annotations

import datetime
from typing import TypeVar

from django.contrib import messages
from django.http import HttpRequest, HttpResponse

MARK_HEADER = "X-Public-Cacheable"
SERVER_TIME_HEADER = "X-Server-Time"
_CACHEABLE_PARAMS = {"fragment"}

Answer = TypeVar("Answer", bound=HttpResponse)


def request_cacheable(request: HttpRequest) -> bool:
    """Whether the answer to ``request`` is the same for every anonymous visitor."""
    if request.method != "GET" or request.user.is_authenticated:
        return False
    if not set(request.GET) <= _CACHEABLE_PARAMS:
        return False
    # A pending message (e.g. "logged out") must be shown, not cached.
    return len(messages.get_messages(request)) == 0


def mark_briefly_cacheable(
    request: HttpRequest,
    response: Answer,
    *,
    published: bool,
    seconds: int,
    now: datetime.datetime,
) -> Answer:
    """Let the WSGI fast path keep an anonymous GET's answer for ``seconds``.

    For pages whose data changes without a ``data_version`` bump (the hall
    screen follows every move): such a copy is stale by at most ``seconds``,
    never by more. The response also says when it is sent (``X-Server-Time``,
    epoch seconds, renewed by the fast path on every copy it serves), so a
    display counting on from a time inside the answer knows how old it is.
    ``now`` is when the answer was made.
    """
    response[SERVER_TIME_HEADER] = f"{now.timestamp():.3f}"
    if published and response.status_code == 200 and request_cacheable(request):
        response[MARK_HEADER] = f"max-age={seconds}"
    return response
