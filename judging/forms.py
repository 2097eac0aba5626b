"""What a button of the judge's review page posts, read as a form.

The page's forms post the fields the rulings API takes, as text, plus the
button (``action``), the entry shown (``at``), a ruling to undo (``ruling``)
and one ``decide`` per later entry a void touches (``"12:keep"``,
``"13:void"``). This form reads them; the API's serializers
(``judging.serializers``) then check each field as they do for the API, so
the page and the API refuse alike.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils import translation

from core.errors import ApplicationError
from core.request import parse_optional_int
from core.text import text_check
from core.validation import refusal
from games.models import MAX_ENTRY_NUMBER
from judging.serializers import MAX_ID

# Longer than any field of the ruling forms (a reason is at most 1000 characters).
FIELD_LENGTH = 2000
_RULING_FIELDS = (
    "seq", "position", "penalty", "seat", "pawn", "move", "winner", "reason", "rule", "call",
    "keep_call_open",
)  # fmt: skip


class _PostedText(forms.CharField):
    """A field as typed, storable (``core.text``); the serializer checks the rest."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(required=False, strip=False, max_length=FIELD_LENGTH, **kw)

    def validate(self, value: str) -> None:
        super().validate(value)
        try:
            text_check(value, field=str(self.label or ""))
        except ApplicationError as error:
            raise refusal(error) from None


class _PostedTexts(forms.Field):
    """A repeated field (one check box per entry): every value, each as ``_PostedText``."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> list[str]:
        values = value if isinstance(value, list | tuple) else []
        field = _PostedText(label=self.label)
        return [field.clean(item) for item in values]


class _PostedNumber(forms.CharField):
    """A whole number in range (``core.request``'s rules), or None when empty."""

    def __init__(self, *, minimum: int, maximum: int, **kw: Any) -> None:
        super().__init__(required=False, **kw)
        self.minimum, self.maximum = minimum, maximum

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        text = super().to_python(value)
        try:
            return parse_optional_int(
                text, field=str(self.label or ""), minimum=self.minimum, maximum=self.maximum
            )
        except ApplicationError as error:
            raise refusal(error) from None


class ReviewPostForm(forms.Form):
    action = _PostedText(label="action")
    at = _PostedNumber(label="at", minimum=0, maximum=MAX_ENTRY_NUMBER)
    ruling = _PostedNumber(label="ruling", minimum=1, maximum=MAX_ID)
    decide = _PostedTexts(label="decide", required=False)
    seq = _PostedText(label="seq")
    position = _PostedText(label="position")
    penalty = _PostedText(label="penalty")
    seat = _PostedText(label="seat")
    pawn = _PostedText(label="pawn")
    move = _PostedText(label="move")
    winner = _PostedText(label="winner")
    reason = _PostedText(label="reason")
    rule = _PostedText(label="rule")
    call = _PostedText(label="call")
    keep_call_open = _PostedText(label="keep_call_open")

    def ruling_data(self) -> dict[str, Any]:
        """The fields as the rulings API takes them: which later entries a void keeps
        (and then the corrected position) and which it voids too."""
        posted = self.cleaned_data
        data: dict[str, Any] = {name: posted[name] for name in _RULING_FIELDS}
        decide = posted["decide"]
        data["keep"] = [k.split(":")[0] for k in decide if k.endswith(":keep")]
        data["also"] = [k.split(":")[0] for k in decide if k.endswith(":void")]
        # A void's position box corrects the board only when it keeps later entries;
        # "Correct the position" posts its position on its own.
        if posted["action"] == "void" and not data["keep"]:
            data["position"] = ""
        return data

    def refusal(self) -> ApplicationError:
        """The first refused field, as the error the page shows."""
        name, errors = next(iter(self.errors.as_data().items()))
        error: ValidationError = errors[0]
        texts = {}
        for lang in ("en", "da"):
            with translation.override(lang):
                texts[lang] = f"{name}: {' '.join(error.messages)}"
        return ApplicationError(
            error.code or "invalid", texts["en"], texts["da"], status=400, extra={"field": name}
        )
