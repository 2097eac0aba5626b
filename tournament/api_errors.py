"""DRF exception handler: every error becomes one bilingual JSON shape.

``ApplicationError`` carries its own messages. DRF's own exceptions
(validation, unreadable JSON, not found, method not allowed …) are given the
same ``{"error": {code, message, message_en, message_da}}`` shape that the
OpenAPI schema documents; field errors ride along under ``error.fields``.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournament.errors import ApplicationError


def _in(lang: str, text: Any) -> str:
    with translation.override(lang):
        return str(text)


def _drf_error(exc: exceptions.APIException) -> dict[str, Any]:
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        names = ", ".join(str(name) for name in detail)
        return {
            "code": "invalid",
            "message_en": f"Some fields are invalid: {names}.",
            "message_da": f"Nogle felter er ugyldige: {names}.",
            "fields": detail,
        }
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return {
            "code": "unsupported_media_type",
            "message_en": "Send the request body as JSON (Content-Type: application/json).",
            "message_da": "Send forespørgslens indhold som JSON (Content-Type: application/json).",
        }
    if isinstance(exc, exceptions.ParseError):
        return {
            "code": "malformed_request",
            "message_en": "The request could not be read: send a JSON object.",
            "message_da": "Forespørgslen kunne ikke læses: send et JSON-objekt.",
        }
    detail = exc.detail if isinstance(exc.detail, str) else exc.default_detail
    # DRF's default texts are lazy translations; a custom text is shown as is.
    message = exc.default_detail if str(detail) == _in("en", exc.default_detail) else detail
    return {
        "code": str(getattr(detail, "code", None) or exc.default_code),
        "message_en": _in("en", message),
        "message_da": _in("da", message),
    }


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        return Response({"error": exc.to_json()}, status=exc.status_code)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    api_exc = exc if isinstance(exc, exceptions.APIException) else None
    if api_exc is None:  # Http404 / Django PermissionDenied, converted by DRF
        api_exc = (
            exceptions.NotFound() if response.status_code == 404 else exceptions.PermissionDenied()
        )
    error = _drf_error(api_exc)
    lang = (translation.get_language() or "da")[:2]
    error["message"] = error["message_en"] if lang == "en" else error["message_da"]
    response.data = {"error": error}
    return response
