"""DRF exception handler: every error becomes one bilingual JSON shape.

``ApplicationError`` carries its own messages. DRF's own exceptions
(validation, unreadable JSON, not found, method not allowed …) are given the
same ``{"error": {code, message, message_en, message_da}}`` shape that the
OpenAPI schema documents (``ApiErrorSerializer``, the one shape every app's
API names for its error answers); field errors ride along under
``error.fields``.
"""

from __future__ import annotations

import functools
from typing import Any

from django.utils import translation
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import exceptions, fields, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import NOT_ALLOWED, ApplicationError, Text, in_language
from core.schema_components import FIELD_ERRORS
from core.validation import InputRefused


def _in(lang: str, text: Any) -> str:
    with translation.override(lang):
        return str(text)


def _answer(code: str, text: Text, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "code": code,
        "message_en": in_language(text, "en", params),
        "message_da": in_language(text, "da", params),
    }


def _framework_message(exc: exceptions.APIException, request: Any) -> dict[str, Any] | None:
    """Our own code and text for an error DRF raises by itself.

    DRF translates its messages once, in the active language, and some of its
    Danish texts are half English; these say what to do instead.
    """
    method = getattr(request, "method", "") or ""
    if isinstance(exc, exceptions.NotFound):
        return _answer("not_found", _("Not found: nothing exists at this address."))
    if isinstance(exc, exceptions.MethodNotAllowed):
        return _answer(
            "method_not_allowed",
            _("This address does not accept %(method)s."),
            {"method": method},
        )
    if isinstance(exc, exceptions.NotAuthenticated):
        return _answer("not_authenticated", _("Sign in first."))
    if isinstance(exc, exceptions.AuthenticationFailed):
        return _answer("authentication_failed", _("Signing in failed."))
    if isinstance(exc, exceptions.PermissionDenied) and str(exc.detail).startswith("CSRF"):
        return _answer(
            "csrf_failed",
            _(
                "The security token (CSRF) is missing or out of date: reload the page and try "
                "again. Nothing was changed."
            ),
        )
    if isinstance(exc, exceptions.PermissionDenied):
        return _answer("permission_denied", NOT_ALLOWED)
    if isinstance(exc, exceptions.Throttled):
        wait = int(getattr(exc, "wait", None) or 1)
        return _answer(
            "throttled", _("Too many requests: try again in %(wait)s seconds."), {"wait": wait}
        )
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return _answer(
            "unsupported_media_type",
            _("Send the request as JSON (Content-Type: application/json)."),
        )
    if isinstance(exc, exceptions.NotAcceptable):
        return _answer("not_acceptable", _("This address answers in JSON only."))
    return None


@functools.cache
def _framework_codes() -> frozenset[str]:
    """The codes DRF and Django give their own checks (``required``, ``max_length`` …)."""
    found: set[str] = {"null_characters_not_allowed", "surrogate_characters_not_allowed"}
    pending: list[type[Any]] = [fields.Field]
    while pending:
        field = pending.pop()
        found |= set(getattr(field, "default_error_messages", {}))
        pending.extend(field.__subclasses__())
    return frozenset(found)


def _first_own_code(codes: Any) -> tuple[str, str, int] | None:
    """(field, code, position) of the first refusal one of our validators gave."""
    framework = _framework_codes()
    for name, field_codes in codes.items() if isinstance(codes, dict) else ():
        if not isinstance(field_codes, list):
            continue
        for position, code in enumerate(field_codes):
            if isinstance(code, str) and code not in framework:
                return str(name), code, position
    return None


def _input_refused(exc: InputRefused) -> dict[str, Any] | None:
    """A field refused by one of our validators answers with that validator's code."""
    own = _first_own_code(exc.get_codes())
    if own is None:
        return None
    name, code, position = own
    return {
        "code": code,
        "message_en": str(exc.texts["en"][name][position]),
        "message_da": str(exc.texts["da"][name][position]),
        "field": name,
        "fields": exc.detail,
    }


def _drf_error(exc: exceptions.APIException, request: Any = None) -> dict[str, Any]:
    if isinstance(exc, InputRefused):
        own = _input_refused(exc)
        if own is not None:
            return own
    if isinstance(exc, exceptions.ValidationError):
        fields: Any = (
            exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        )
        names = ", ".join(str(name) for name in fields)
        return {
            **_answer("invalid", _("Some fields are invalid: %(names)s."), {"names": names}),
            "fields": fields,
        }
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return _answer(
            "unsupported_media_type",
            _("Send the request body as JSON (Content-Type: application/json)."),
        )
    if isinstance(exc, exceptions.ParseError):
        return _answer("malformed_request", _("The request could not be read: send a JSON object."))
    known = _framework_message(exc, request)
    if known is not None:
        return known
    detail = exc.detail if isinstance(exc.detail, str) else exc.default_detail
    code = str(getattr(detail, "code", None) or exc.default_code)
    # DRF's own text, in each language; a custom text is shown as is.
    defaults = {_in(lang, exc.default_detail) for lang in ("en", "da")}
    message = exc.default_detail if str(detail) in defaults else detail
    return {"code": code, "message_en": _in("en", message), "message_da": _in("da", message)}


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
    error = _drf_error(api_exc, context.get("request"))
    lang = (translation.get_language() or "da")[:2]
    error["message"] = error["message_en"] if lang == "en" else error["message_da"]
    response.data = {"error": error}
    return response


# The shape the OpenAPI schema documents for every error answer.


@extend_schema_field({"$ref": f"#/components/schemas/{FIELD_ERRORS}"})
class FieldErrorsField(serializers.DictField):
    """DRF's messages per refused field, nested as its input is (``FieldErrors``)."""


class ApiErrorBodySerializer(serializers.Serializer[Any]):
    """A refusal; the fields after the messages come only with the refusals that name
    them (``ApplicationError(extra=...)``: tests/test_schema_answers.py keeps every
    key raised anywhere listed here)."""

    code = serializers.CharField(help_text="Stable error code (a RULES.md id where one applies).")
    message = serializers.CharField(
        help_text="The message in the request's language (Danish by default)."
    )
    message_en = serializers.CharField()
    message_da = serializers.CharField()
    rule = serializers.CharField(
        required=False, help_text="A refusal by a rule (422, 409): its RULES.md id."
    )
    field = serializers.CharField(required=False, help_text="The request field refused.")
    fields = FieldErrorsField(  # type: ignore[assignment]  # a field, not Serializer.fields
        required=False,
        help_text="Per request field, its messages in the request's language.",
    )
    seq = serializers.IntegerField(
        required=False, help_text="A refused take-back: the log entry it names."
    )
    ruling = serializers.IntegerField(
        required=False, help_text="A ruling that was already undone (J2): its id."
    )
    adjudicated_winner = serializers.ChoiceField(
        choices=["YB", "RG"],
        allow_null=True,
        required=False,
        help_text="A result refused against a time-out decision (W3): the side it gave the "
        "game to, null while none is decided.",
    )
    tables = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="A round not complete: the table numbers without a result.",
    )
    closed = serializers.IntegerField(
        required=False, help_text="A knockout cut before the Swiss rounds end: rounds closed."
    )
    planned = serializers.IntegerField(
        required=False, help_text="A knockout cut before the Swiss rounds end: rounds planned."
    )
    rank = serializers.IntegerField(
        required=False, help_text="A knockout cut inside a tie: the shared rank."
    )
    places = serializers.IntegerField(
        required=False, help_text="A knockout cut inside a tie: how many of the tied go through."
    )
    choices = serializers.ListField(
        child=serializers.ChoiceField(choices=["tiebreak", "seed", "playoff"]),
        required=False,
        help_text="A knockout cut inside a tie: the ways it can be decided.",
    )
    pairs = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="A knockout cut inside a tie: the tied pairs' start numbers.",
    )


class ApiErrorSerializer(serializers.Serializer[Any]):
    error = ApiErrorBodySerializer()
