"""Reading the values organisers type: text and numbers within bounds, bilingual refusals."""

from __future__ import annotations

from typing import Any

from core.errors import ApplicationError
from core.request import parse_int
from core.text import name_check

ANY_INT = 10**18 - 1


def _invalid(code: str, en: str, da: str, **extra: Any) -> ApplicationError:
    return ApplicationError(code, en, da, extra=extra or None)


def _clean_text(value: Any, *, field: str, max_length: int, required: bool) -> str:
    """A one-line name or label: no control or direction characters (``core.text``)."""
    text = name_check("" if value is None else str(value).strip(), field=field)
    if required and not text:
        raise _invalid(
            "field_required", f"{field} must not be empty.", f"{field} skal udfyldes.", field=field
        )
    if len(text) > max_length:
        raise _invalid(
            "field_too_long",
            f"{field} is longer than {max_length} characters.",
            f"{field} er længere end {max_length} tegn.",
            field=field,
        )
    return text


def _clean_int(value: Any, *, field: str, low: int, high: int) -> int:
    number = parse_int(
        value,
        field=field,
        minimum=-ANY_INT,
        maximum=ANY_INT,
        error=_invalid(
            "field_not_a_number",
            f"{field} must be a whole number.",
            f"{field} skal være et helt tal.",
            field=field,
        ),
    )
    if not low <= number <= high:
        raise _invalid(
            "field_out_of_range",
            f"{field} must be between {low} and {high}.",
            f"{field} skal være mellem {low} og {high}.",
            field=field,
        )
    return number


def _optional_int(value: Any, *, field: str, low: int, high: int) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return _clean_int(value, field=field, low=low, high=high)
