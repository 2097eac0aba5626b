"""Reading what a request carries: integers, text, choices and the JSON body.

Every value a view or service takes from a request by hand passes through
here (Django forms and DRF serializers parse their own fields), so a
malformed one is refused the same way everywhere: a bilingual
``ApplicationError`` (400, or 413 for a body too large) that the API turns
into its error JSON and the pages into a message, never a 500.

* **Integers** are ASCII digits with an optional sign, at most 18 of them,
  in a range the caller names. ``str.isdigit()`` is true for "²" and "٣",
  and ``int()`` accepts "٣" but not "²": neither is a number a form or a
  client sends on purpose, so both are refused.
* **Text** from a query string or a form is checked for what the database
  cannot store (``core.text``) and cut to a length the caller names.
* **JSON bodies** are read by ``read_json``: bounded in size and nesting
  (50,000 nested brackets would exhaust Python's recursion in ``json``),
  strict UTF-8, no ``NaN``/``Infinity``, and no NUL or lone surrogate in any
  string or key. ``BoundedJSONParser`` is the API's JSON parser.

Tests check that no view reads a query or form parameter around these
functions (tests/security/test_hostile_input.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import IO, Any, TypeVar

from django.conf import settings
from django.http import HttpRequest, QueryDict
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from core.errors import ApplicationError
from core.text import is_storable, text_check, text_not_storable

# Deep enough for every document the system takes (a game record is 3 deep).
MAX_JSON_DEPTH = 20
_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")
_ASCII_SPACE = " \t\r\n"
# A JSON string (escapes included) or one bracket: enough to count nesting
# without parsing. Unrolled so a long string is matched in one pass.
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
# In valid JSON text a NUL or a surrogate can only be an escape (strict parsing
# refuses raw control characters; UTF-8 cannot carry surrogates): without one
# of these the parsed strings need no walk.
_NUL_OR_SURROGATE_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")

Choice = TypeVar("Choice", bound=str)


# --- integers -----------------------------------------------------------------


def int_invalid(field: str, minimum: int, maximum: int) -> ApplicationError:
    """The bilingual 400 for a value that is not a whole number in range."""
    return ApplicationError(
        f"{field}_invalid",
        _("%(field)s must be a whole number from %(minimum)s to %(maximum)s."),
        params={"field": field, "minimum": minimum, "maximum": maximum},
        status=400,
        extra={"field": field},
    )


def parse_int(
    value: object,
    *,
    field: str,
    minimum: int,
    maximum: int,
    error: ApplicationError | None = None,
) -> int:
    """``value`` (a JSON integer or a string of ASCII digits) as an int in range.

    Refused with ``error`` (default: ``int_invalid``): booleans, floats,
    lists, objects, null, Unicode digits, more than 18 digits, and anything
    outside ``minimum``…``maximum``.
    """
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str):
        text = value.strip(_ASCII_SPACE)
        if _INTEGER.fullmatch(text):
            number = int(text)
    if number is None or not minimum <= number <= maximum:
        raise error or int_invalid(field, minimum, maximum)
    return number


def int_or_none(value: object, *, minimum: int, maximum: int) -> int | None:
    """The int ``value`` is by ``parse_int``'s rules, or ``None`` (a search box: a
    number or a name)."""
    try:
        return parse_int(value, field="value", minimum=minimum, maximum=maximum)
    except ApplicationError:
        return None


def parse_optional_int(
    value: object,
    *,
    field: str,
    minimum: int,
    maximum: int,
    error: ApplicationError | None = None,
) -> int | None:
    """``parse_int``, with ``None`` and an empty string meaning "not given"."""
    if value is None or (isinstance(value, str) and not value.strip(_ASCII_SPACE)):
        return None
    return parse_int(value, field=field, minimum=minimum, maximum=maximum, error=error)


# --- query strings and form fields ----------------------------------------------


def _raw(data: QueryDict, name: str) -> str | None:
    value = data.get(name)
    return value if isinstance(value, str) else None


def field_int(
    data: QueryDict,
    name: str,
    *,
    minimum: int,
    maximum: int,
    default: int | None = None,
    error: ApplicationError | None = None,
) -> int | None:
    """A field of submitted data (query or form) as an int in range; ``default`` when
    absent or empty; else a 400."""
    value = parse_optional_int(
        _raw(data, name), field=name, minimum=minimum, maximum=maximum, error=error
    )
    return default if value is None else value


def field_text(data: QueryDict, name: str, *, max_length: int, default: str = "") -> str:
    """A field of submitted data (a form's ``data``) as storable text cut to ``max_length``."""
    value = _raw(data, name)
    if value is None:
        return default
    return text_check(value, field=name)[:max_length]


def _choice_param(data: QueryDict, name: str, choices: Iterable[Choice], default: Choice) -> Choice:
    value = _raw(data, name)
    for choice in choices:
        if value == choice:
            return choice
    return default


def query_int(
    request: HttpRequest,
    name: str,
    *,
    minimum: int,
    maximum: int,
    default: int | None = None,
    error: ApplicationError | None = None,
) -> int | None:
    """``?name=`` as an int in range; ``default`` when absent or empty; else a 400."""
    return field_int(
        request.GET, name, minimum=minimum, maximum=maximum, default=default, error=error
    )


def query_text(request: HttpRequest, name: str, *, max_length: int, default: str = "") -> str:
    """``?name=`` as storable text cut to ``max_length`` (search boxes); else a 400."""
    return field_text(request.GET, name, max_length=max_length, default=default)


def query_choice(
    request: HttpRequest, name: str, choices: Iterable[Choice], default: Choice
) -> Choice:
    """``?name=`` if it is one of ``choices``, else ``default`` (an optional display setting)."""
    return _choice_param(request.GET, name, choices, default)


def query_flag(request: HttpRequest, name: str) -> bool:
    """``?name=1`` is on; anything else (or nothing) is off."""
    return _raw(request.GET, name) == "1"


def post_text(request: HttpRequest, name: str, *, max_length: int, default: str = "") -> str:
    """A form field as storable text cut to ``max_length``; else a 400."""
    return field_text(request.POST, name, max_length=max_length, default=default)


def post_texts(request: HttpRequest, name: str, *, max_length: int) -> list[str]:
    """Every value of a repeated form field (checkboxes), each as ``post_text``."""
    return [text_check(value, field=name)[:max_length] for value in request.POST.getlist(name)]


def post_choice(
    request: HttpRequest, name: str, choices: Iterable[Choice], default: Choice
) -> Choice:
    """A form field if it is one of ``choices``, else ``default``."""
    return _choice_param(request.POST, name, choices, default)


# --- JSON -------------------------------------------------------------------------


def body_limit() -> int:
    """The largest request body the system reads (``DATA_UPLOAD_MAX_MEMORY_SIZE``)."""
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0)


def malformed_json() -> ApplicationError:
    return ApplicationError(
        "malformed_request",
        _("The request could not be read: send a JSON object."),
        status=400,
    )


def too_large(max_bytes: int) -> ApplicationError:
    """The bilingual 413 for a body or file over ``max_bytes``."""
    size = f"{max_bytes / (1024 * 1024):g} MB" if max_bytes >= 1024 * 1024 else f"{max_bytes} B"
    return ApplicationError(
        "request_too_large",
        _("The upload is too large (at most %(size)s). Nothing was changed."),
        params={"size": size},
        status=413,
    )


def _too_deep(max_depth: int) -> ApplicationError:
    return ApplicationError(
        "json_too_deep",
        _(
            "The JSON is nested more than %(max_depth)s levels deep; nothing this "
            "system reads is. Nothing was changed."
        ),
        params={"max_depth": max_depth},
        status=400,
    )


def _nesting_within(text: str, max_depth: int) -> bool:
    if text.count("[") + text.count("{") <= max_depth:
        return True  # too few brackets to nest deeper (a C-speed count spares the scan)
    depth = 0
    for token in _JSON_TOKEN.finditer(text):
        char = token.group()
        if char in "[{":
            depth += 1
            if depth > max_depth:
                return False
        elif char in "]}":
            depth -= 1
    return True


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def strings_storable(document: Any) -> bool:
    """Whether every string (and key) of a JSON document can be stored (``core.text``)."""
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not is_storable(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def read_json(
    raw: bytes | str, *, max_bytes: int, max_depth: int = MAX_JSON_DEPTH, field: str = "body"
) -> Any:
    """Parse a JSON document, bounded: see the module doc. Raises ``ApplicationError``."""
    if len(raw) > max_bytes:
        raise too_large(max_bytes)
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise malformed_json() from None
    if not _nesting_within(text, max_depth):
        raise _too_deep(max_depth)
    try:
        document = json.loads(text, parse_constant=_refuse_constant)
    except ValueError:
        raise malformed_json() from None
    if _NUL_OR_SURROGATE_ESCAPE.search(text) and not strings_storable(document):
        raise text_not_storable(field)
    return document


def read_json_file(stream: IO[bytes], *, max_bytes: int, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``read_json`` of a file, read no further than one byte past ``max_bytes``."""
    return read_json(stream.read(max_bytes + 1), max_bytes=max_bytes, max_depth=max_depth)


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, reading through ``read_json`` (the API's JSON parser)."""

    def parse(
        self,
        stream: IO[bytes] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        if stream is None:
            return {}
        return read_json_file(stream, max_bytes=body_limit())


def json_object_body(request: Any) -> dict[str, Any]:
    """The API request's JSON object, or a bilingual 400 for anything else.

    A body that is not a JSON object (a list, a number, a form) is malformed;
    the bounded reader's own refusals (too deep, not storable) pass through.
    """
    try:
        data = request.data
    except ParseError:
        data = None
    if not isinstance(data, dict) or isinstance(data, QueryDict):
        raise malformed_json()
    return data


def json_object_or_none(request: Any) -> dict[str, Any] | None:
    """The JSON object of the body if there is one, without refusing anything.

    For settings that only shape the answer (its language) before the body
    itself is checked. The bounded reader's refusals are not swallowed: DRF
    keeps an empty body after a failed parse, so a later read could not
    report them.
    """
    try:
        data = request.data
    except ParseError:
        return None
    return data if isinstance(data, dict) and not isinstance(data, QueryDict) else None


def json_str(body: Mapping[str, Any], name: str) -> str:
    """The string under ``name`` in a JSON object; "" when it is absent or not a string.

    For fields whose every wrong value is refused alike (an identifier, a
    choice): the service's own check then refuses "" with its message.
    """
    value = body.get(name)
    return value if isinstance(value, str) else ""
