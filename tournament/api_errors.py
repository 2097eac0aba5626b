"""DRF exception handler: ApplicationError becomes a bilingual JSON error."""

from __future__ import annotations

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournament.errors import ApplicationError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        return Response({"error": exc.to_json()}, status=exc.status_code)
    return drf_exception_handler(exc, context)
