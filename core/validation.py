"""Input checked at the boundary: one refusal per field, in both languages.

Serializers (the API) and forms (the pages) check and convert what a person
typed; services take typed values and hold the business rules. A field's own
checks are plain validators (callables raising Django's ``ValidationError``
with a stable ``code``), so a form field and a serializer field can share one
definition.

An ``InputSerializer`` that refuses its data raises ``InputRefused``: its
field errors in the active language plus each field's messages in English
and Danish, which ``core.api_errors`` turns into the one bilingual shape
(``error.code`` is the refusing validator's code, e.g. ``field_out_of_range``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers
from rest_framework.fields import empty

from core.errors import ApplicationError
from core.text import name_check

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

LANGUAGES = ("en", "da")


def refusal(error: ApplicationError) -> ValidationError:
    """An ``ApplicationError`` of a text check (``core.text``) as a field's validation error.

    The message is read when the error is shown, so it comes in the language
    active then (``ApplicationError.message``).
    """
    return ValidationError(error.message, code=error.code)


class InputRefused(exceptions.ValidationError):
    """An ``InputSerializer``'s refusal: its errors, and their texts in each language."""

    def __init__(self, detail: Any, texts: dict[str, Any]) -> None:
        super().__init__(detail)
        self.texts = texts


class InputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """A request body's shape; refusals carry their texts in English and Danish."""

    def is_valid(self, *, raise_exception: bool = False) -> bool:
        valid = super().is_valid()
        if not valid and raise_exception:
            raise InputRefused(self.errors, texts=self.errors_in_languages())
        return valid

    def errors_in_languages(self) -> dict[str, Any]:
        """The field errors, checked again in each language (``{"en": …, "da": …}``)."""
        texts = {}
        for lang in LANGUAGES:
            with translation.override(lang):
                again = type(self)(data=self.initial_data, context=self.context)
                again.is_valid()
                texts[lang] = again.errors
        return texts

    def first_refusal(self) -> tuple[str, str]:
        """The first refused field and why, in English and Danish (``"field: why"``)."""
        texts = self.errors_in_languages()
        return _first(texts["en"]), _first(texts["da"])


class WholeValueField(serializers.Field):  # type: ignore[type-arg]
    """A field whose one check sees every value, also a missing, empty or null one
    (as None), so each wrong value is refused alike, with the field's own code."""

    def run_validation(self, data: object = empty) -> Any:
        return self.to_internal_value(None if data is empty else data)

    def to_representation(self, value: Any) -> Any:
        return value


class WholeNumberRange:
    """A whole number from ``low`` to ``high`` (``field_out_of_range``)."""

    def __init__(self, field: str, low: int, high: int) -> None:
        self.field, self.low, self.high = field, low, high

    def __call__(self, value: int) -> None:
        if not self.low <= value <= self.high:
            raise ValidationError(
                _("%(field)s must be between %(low)s and %(high)s."),
                code="field_out_of_range",
                params={"field": self.field, "low": self.low, "high": self.high},
            )


@deconstructible
class OneLineName:
    """A name or label as typed: storable, without control, direction or invisible characters.

    A model field's validator too (``validators=[OneLineName("name")]``), so
    the admin, model forms and model serializers refuse what the API does.
    """

    def __init__(self, field: str) -> None:
        self.field = field

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OneLineName) and other.field == self.field

    def __hash__(self) -> int:
        return hash((OneLineName, self.field))

    def __call__(self, value: str) -> None:
        try:
            name_check(value, field=self.field)
        except ApplicationError as error:
            raise refusal(error) from None


def _first(errors: Any) -> str:
    name, detail = next(iter(errors.items()))
    while isinstance(detail, dict):  # a list's or a nested object's errors
        detail = next(iter(detail.values()))
    text = str(detail[0] if isinstance(detail, list) else detail)
    # The text checks of core.text name their field themselves.
    return text if text.startswith(f"{name}:") else f"{name}: {text}"


class OneOf:
    """A value among ``choices()``, refused with its own code and text."""

    def __init__(
        self,
        choices: Callable[[], Sequence[str]],
        code: str,
        message: StrOrPromise,
        *,
        listed: bool,
    ) -> None:
        self.choices, self.code, self.message, self.listed = choices, code, message, listed

    def __call__(self, value: str) -> None:
        known = self.choices()
        if value not in known:
            params = {"known": ", ".join(known)} if self.listed else None
            raise ValidationError(self.message, code=self.code, params=params)
