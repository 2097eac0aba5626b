"""What a judge or a table sends to judging, checked field by field where it enters.

The API's views and the review page's view run the same serializers, so a
refusal has one code everywhere (``reason_required``, ``entry_invalid``,
``seat_invalid`` …). Each field's check sees a missing, empty or null value
too, and refuses it with the field's own code. The services take the typed
values and keep the rules that need the game: the seats of its ruleset (a
DUO table has Y and R), the entries its log holds, a reason an adjudication
override needs, who may rule.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, cast

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.errors import ApplicationError, bilingual
from core.request import parse_optional_int
from core.validation import InputRefused, InputSerializer, WholeValueField
from games.engine import (
    AnyPosition,
    EngineError,
    Ruleset,
    parse_judge_entry,
    position_from_json,
    variant_of,
)
from games.models import MAX_ENTRY_NUMBER
from judging.services.ruling_requests import (
    AdjudicationRequest,
    PenaltyRequest,
    PositionRequest,
    ResultRequest,
    RulingRequest,
    UpholdRequest,
    VoidRequest,
    WarningRequest,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MAX_REASON_LENGTH = 1000
MAX_CALL_REASON_LENGTH = 300
# Database ids are 64-bit; a request never names a larger one.
MAX_ID = 2**63 - 1
WORD_LENGTH = 60
# Search boxes of the rulings and incident pages.
SEARCH_LENGTH = 200
RULE_ID_LENGTH = 4
SEATS = ("Y", "R", "B", "G")
PENALTIES = ("P1", "P2", "P3", "P4")
_CLIENT_ID_RE = re.compile(r"^[A-Za-z0-9_.:-]{8,64}$")
_RULE_ID_RE = re.compile(r"^[A-Z][0-9]{0,2}$")


def _refused(code: str, message: StrOrPromise, **params: Any) -> ValidationError:
    return ValidationError(message, code=code, params=params or None)


@extend_schema_field(OpenApiTypes.STR)
class ReasonField(WholeValueField):
    """Why (stripped); a ruling always needs one. Not text, it is empty."""

    def __init__(self, *, needed: bool = True, limit: int = MAX_REASON_LENGTH, **kw: Any) -> None:
        super().__init__(**kw)
        self.needed, self.limit = needed, limit

    def to_internal_value(self, data: object) -> str:
        text = data.strip() if isinstance(data, str) else ""
        if self.needed and not text:
            raise _refused("reason_required", _("Write the reason for the ruling."))
        if len(text) > self.limit:
            raise _refused(
                "reason_too_long",
                _("The reason may be at most %(limit)s characters."),
                limit=self.limit,
            )
        return text


def _number(data: object, *, minimum: int, maximum: int, refusal: ValidationError) -> int | None:
    try:
        return parse_optional_int(data, field="", minimum=minimum, maximum=maximum)
    except ApplicationError:
        raise refusal from None


def _entry_refused() -> ValidationError:
    return _refused("entry_invalid", _("Name the entry by its number in the log."))


@extend_schema_field(OpenApiTypes.INT)
class EntryField(WholeValueField):
    """An entry number of the log (JSON or a form field)."""

    def to_internal_value(self, data: object) -> int:
        seq = _number(data, minimum=1, maximum=MAX_ENTRY_NUMBER, refusal=_entry_refused())
        if seq is None:
            raise _entry_refused()
        return seq


@extend_schema_field({"type": "array", "items": {"type": "integer"}})
class EntryListField(WholeValueField):
    """Entry numbers: a list, or a text "5, 6 7"; absent is none."""

    def to_internal_value(self, data: object) -> tuple[int, ...]:
        if data in (None, ""):
            return ()
        if isinstance(data, str):
            items: list[object] = [v for v in data.replace(",", " ").split() if v]
        elif isinstance(data, list | tuple):
            items = list(data)
        else:
            items = [data]
        return tuple(EntryField().to_internal_value(item) for item in items)


@extend_schema_field(OpenApiTypes.INT)
class CallField(WholeValueField):
    """The id of the judge call a ruling answers, if any."""

    def to_internal_value(self, data: object) -> int | None:
        refusal = _refused("call_invalid", _("Name the judge call by its number."))
        return _number(data, minimum=1, maximum=MAX_ID, refusal=refusal)


class _OneOfField(WholeValueField):
    choices: tuple[str, ...] = ()
    code = ""
    message: StrOrPromise = ""

    def to_internal_value(self, data: object) -> str:
        if data not in self.choices:
            raise _refused(self.code, self.message)
        return str(data)


@extend_schema_field({"type": "string", "enum": list(SEATS)})
class SeatField(_OneOfField):
    """A seat of any table; the service checks it against the game's ruleset."""

    choices, code = SEATS, "seat_invalid"
    message = _("Choose the seat: Yellow, Red, Blue or Green.")


@extend_schema_field({"type": "string", "enum": ["YB", "RG"]})
class WinnerField(_OneOfField):
    choices, code = ("YB", "RG"), "winner_invalid"
    message = _("The winner is Yellow/Blue (YB) or Red/Green (RG).")


@extend_schema_field({"type": "string", "enum": list(PENALTIES)})
class PenaltyField(_OneOfField):
    choices, code = PENALTIES, "penalty_invalid"
    message = _("Choose P1, P2, P3 or P4.")


@extend_schema_field(OpenApiTypes.STR)
class RuleIdField(WholeValueField):
    """A rule id from the rules (``F6``, ``p2`` as ``P2``); absent is none."""

    def to_internal_value(self, data: object) -> str:
        text = data.strip().upper() if isinstance(data, str) else ""
        if data not in (None, "") and not _RULE_ID_RE.match(text):
            raise _refused(
                "rule_invalid", _("Name the rule by its id from the rules, e.g. F6 or P2.")
            )
        return text


@extend_schema_field(OpenApiTypes.STR)
class WordField(WholeValueField):
    """A short text of a ruling (a pawn, a forced move); absent is empty."""

    def to_internal_value(self, data: object) -> str:
        if data in (None, ""):
            return ""
        if not isinstance(data, str) or len(data) > WORD_LENGTH:
            raise _refused(
                f"{self.field_name}_invalid",
                _("%(field)s must be a short text (at most %(limit)s characters)."),
                field=self.field_name,
                limit=WORD_LENGTH,
            )
        return data


@extend_schema_field(
    {
        "oneOf": [
            {
                "type": "string",
                "description": "What follows '! SET', e.g. 'Y=YH,YH,YS,Y3 R=… B=… G=…'.",
            },
            {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
                "description": "Per colour (DUO: per home area), its pawns' locations.",
            },
        ]
    }
)
class PositionField(WholeValueField):
    """The pawns where they stand: a ``! SET`` text or an object, read in the game's
    ruleset (the serializer's ``context["ruleset"]``); absent is none unless ``needed``."""

    def __init__(self, *, needed: bool = False, **kw: Any) -> None:
        super().__init__(**kw)
        self.needed = needed

    def to_internal_value(self, data: object) -> AnyPosition | None:
        ruleset: Ruleset = self.context["ruleset"]
        if not data and not self.needed:
            return None
        try:
            if isinstance(data, str):
                return parse_judge_entry(f"! SET {data}", ruleset).position
            if isinstance(data, dict):
                return position_from_json(data, ruleset)
        except EngineError as err:
            # A text is read as a judge entry (rule N); an object as the pawns it names.
            code = "N" if isinstance(data, str) else err.rule
            raise _refused(
                code, cast("StrOrPromise", bilingual(err.message_en, err.message_da))
            ) from None
        # How a position is written is the ruleset's own fact (its variant's hint).
        hint_en, hint_da = variant_of(ruleset).position_hint
        raise _refused("position_invalid", cast("StrOrPromise", bilingual(hint_en, hint_da)))


@extend_schema_field(OpenApiTypes.BOOL)
class FlagField(WholeValueField):
    """A check box: true, "1", "true" or "on"; anything else is unticked."""

    def to_internal_value(self, data: object) -> bool:
        return data is True or (isinstance(data, str) and data.lower() in ("1", "true", "on"))


@extend_schema_field(OpenApiTypes.STR)
class ClientIdField(WholeValueField):
    """The device's id of the call: a retry sends the same one."""

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str) or not _CLIENT_ID_RE.match(data):
            raise _refused(
                "client_id_invalid",
                _("The call has no valid client id (8–64 letters, digits, '-', '_', '.', ':')."),
            )
        return data


@extend_schema_field(OpenApiTypes.INT)
class PointedEntryField(WholeValueField):
    """The entry a table's call is about: optional, 0 is none."""

    def to_internal_value(self, data: object) -> int | None:
        refusal = _refused("entry_invalid", _("Point at an entry by its number."))
        return _number(data, minimum=0, maximum=MAX_ENTRY_NUMBER, refusal=refusal) or None


# More alerts than a round of the largest event can raise (two per table).
MAX_ACKNOWLEDGE = 1000


@extend_schema_field({"type": "array", "items": {"type": "integer"}})
class AlertIdsField(WholeValueField):
    """The ids of the alerts a judge saw: a list of 1 to ``MAX_ACKNOWLEDGE`` numbers."""

    def to_internal_value(self, data: object) -> frozenset[int]:
        if (
            not isinstance(data, list)
            or not 0 < len(data) <= MAX_ACKNOWLEDGE
            or not all(isinstance(i, int) and not isinstance(i, bool) and i > 0 for i in data)
        ):
            raise _refused(
                "alert_ids_invalid",
                _("Send the ids of the alerts to acknowledge: a list of 1 to %(most)s numbers."),
                most=MAX_ACKNOWLEDGE,
            )
        return frozenset(data)


# --- requests ---------------------------------------------------------------------


class AlertsAcknowledgeInputSerializer(InputSerializer):
    ids = AlertIdsField(source="alert_ids", help_text="The alerts the judge saw.")


class TableCallInputSerializer(InputSerializer):
    client_id = ClientIdField(help_text="Made by the device; a repeat returns the same call.")
    reason = ReasonField(needed=False, limit=MAX_CALL_REASON_LENGTH)
    seq = PointedEntryField(help_text="The entry the call is about (optional).")


class CallInputSerializer(InputSerializer):
    """The judge call a button of the review page acts on (take, close)."""

    call = CallField()


class VoidCheckInputSerializer(InputSerializer):
    seq = EntryField()
    also = EntryListField()


class RulingUndoInputSerializer(InputSerializer):
    reason = ReasonField()


class _RulingInput(InputSerializer):
    """What every ruling carries; the reason first, so a missing one is named first.

    Its values make the kind's ``ruling`` (``judging.services.ruling_requests``).
    """

    ruling: ClassVar[type[RulingRequest]]
    reason = ReasonField()
    call = CallField(help_text="The judge call the ruling answers; closing it unless kept open.")
    keep_call_open = FlagField()


class UpholdInputSerializer(_RulingInput):
    ruling = UpholdRequest
    seq = EntryField()
    rule = RuleIdField()


class VoidInputSerializer(_RulingInput):
    ruling = VoidRequest
    seq = EntryField()
    also = EntryListField(help_text="Later entries voided too.")
    keep = EntryListField(help_text="Later entries kept (with a position correction).")
    position = PositionField()
    rule = RuleIdField()


class PositionInputSerializer(_RulingInput):
    ruling = PositionRequest
    position = PositionField(needed=True)


class PenaltyInputSerializer(_RulingInput):
    ruling = PenaltyRequest
    penalty = PenaltyField()
    seat = SeatField()
    pawn = WordField()
    move = WordField()


class WarningInputSerializer(_RulingInput):
    ruling = WarningRequest
    seat = SeatField()
    rule = RuleIdField()


class ResultRulingInputSerializer(_RulingInput):
    ruling = ResultRequest
    winner = WinnerField()


class AdjudicationInputSerializer(_RulingInput):
    ruling = AdjudicationRequest
    # Needed only to override the engine's proposal (the service knows the proposal).
    reason = ReasonField(needed=False)
    winner = WinnerField()


RULING_INPUTS: dict[str, type[_RulingInput]] = {
    "uphold": UpholdInputSerializer,
    "void": VoidInputSerializer,
    "position": PositionInputSerializer,
    "penalty": PenaltyInputSerializer,
    "warning": WarningInputSerializer,
    "result": ResultRulingInputSerializer,
    "adjudication": AdjudicationInputSerializer,
}


def _ruling_request(kind: str, inputs: type[_RulingInput]) -> type[_RulingInput]:
    """The schema of one kind's request: its inputs and the ``kind`` that picks them."""
    name = inputs.__name__.removesuffix("InputSerializer").removesuffix("Ruling")
    field = serializers.ChoiceField(choices=[kind], help_text="Which ruling this is.")
    return type(f"{name}RulingRequest", (inputs,), {"kind": field, "__doc__": inputs.__doc__})


RULING_REQUESTS: dict[str, serializers.Serializer[Any] | type[serializers.Serializer[Any]]] = {
    kind: _ruling_request(kind, inputs) for kind, inputs in RULING_INPUTS.items()
}
"""The request of ``POST …/rulings/`` per kind, for the schema (``RulingInput``, one of
these by ``kind``); ``RulingInputSerializer`` reads it."""


@extend_schema_field({"type": "string", "enum": list(RULING_INPUTS)})
class RulingKindField(WholeValueField):
    """Which ruling: one of ``RULING_INPUTS``. An unknown kind is its own 400
    (``ruling_kind_invalid``), answered before any field of a ruling is read."""

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str) or data not in RULING_INPUTS:
            raise ApplicationError(
                "ruling_kind_invalid",
                _(
                    "Unknown ruling: uphold, void, position, penalty, warning, result or "
                    "adjudication."
                ),
            )
        return data


class RulingInputSerializer(InputSerializer):
    """A ruling as the API and the review page send it: the ``kind`` first, then that
    kind's own fields (``RULING_INPUTS``), a position read in the game's ruleset
    (``context["ruleset"]``). Its ``validated_data`` is the kind's ``RulingRequest``.
    """

    kind = RulingKindField(help_text="Which ruling this is.")

    def to_internal_value(self, data: Any) -> RulingRequest:
        inputs = RULING_INPUTS[self.fields["kind"].run_validation(data.get("kind"))]
        fields = inputs(data=data, context=self.context)
        if not fields.is_valid():
            # The kind's refusal is this serializer's, each field with its own code.
            raise serializers.ValidationError(fields.errors)
        return inputs.ruling(**fields.validated_data)

    @property
    def ruling(self) -> RulingRequest:
        """What the ruling asks for, once ``is_valid`` held."""
        return cast("RulingRequest", self.validated_data)


def refusal_error(refused: InputRefused) -> ApplicationError:
    """A page's refusal as the error the page shows (the first refused field)."""
    every = refused.get_codes()
    name, codes = next(iter(every.items())) if isinstance(every, dict) else ("", "invalid")
    code = codes[0] if isinstance(codes, list) else "invalid"
    return ApplicationError(
        str(code),
        str(refused.texts["en"][name][0]),
        str(refused.texts["da"][name][0]),
        status=400,
        extra={"field": name},
    )
