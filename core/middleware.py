"""Pages answer an expected failure that reaches them as a bilingual error page.

The API has its exception handler (``core.api_errors``); a page view
that lets an ``ApplicationError`` through (typically a malformed query
parameter refused by ``core.request``) gets the same message here, with the
error's status, instead of a 500.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from core.errors import ApplicationError


class ApplicationErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, ApplicationError):
            return None
        if request.path.startswith("/api/"):
            return JsonResponse({"error": exception.to_json()}, status=exception.status_code)
        return render(
            request, "errors/refused.html", {"error": exception}, status=exception.status_code
        )
