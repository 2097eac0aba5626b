"""Refuse request bodies above the upload limit before anything reads them.

``DATA_UPLOAD_MAX_MEMORY_SIZE`` only guards ``request.body`` and form
fields: DRF's JSON parser reads the stream directly and a multipart file
upload spills to disk, so neither would stop a 100 MB game record or CSV.
This middleware answers any body larger than the limit with 413 and a
bilingual message (JSON under /api/, a page elsewhere); nothing is read or
changed. Django's own ``RequestDataTooBig`` (a chunked body with no
Content-Length that turns out too large) gets the same answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation

from config.middleware import visitor_language
from core.request import body_limit, too_large

# An event's hand-over file (move logs of a whole day) is larger than any form:
# the organiser pages that take one allow HANDOVER_UPLOAD_MAX_BYTES.
HANDOVER_UPLOADS = re.compile(r"^/organise/(receive/|[-\w]+/handover/return/)$")


def too_large_response(request: HttpRequest) -> HttpResponse:
    """The 413 in the visitor's language: this runs before the language middleware,
    so the thread's active language is whatever its previous request left."""
    language = visitor_language(
        cookie=request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME), path=request.path_info
    )
    with translation.override(language):
        error = too_large(body_limit())
        wants_json = request.path.startswith("/api/") or "json" in request.headers.get("Accept", "")
        if wants_json:
            return JsonResponse({"error": error.to_json()}, status=error.status_code)
        return render(request, "errors/too_large.html", {"error": error}, status=error.status_code)


class RequestSizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = body_limit()
        if HANDOVER_UPLOADS.match(request.path):
            limit = settings.HANDOVER_UPLOAD_MAX_BYTES
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit and length > limit:
            return too_large_response(request)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RequestDataTooBig):
            return too_large_response(request)
        return None
