"""The clock's API: what a judge sends (pause, extend), checked where it enters,
and what every reader of a clock gets back.

The clock services (``games.services.clock``) take the typed values: a
whole number of minutes in range and a reason already stripped and of
a length the clock keeps. ``ClockStateSerializer`` describes the answer
(``games.selectors.clock.ClockState.to_json`` with the status in words and
who paused), ``ClockExtensionSerializer`` one extension in it.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.errors import ApplicationError
from core.request import parse_int
from core.validation import InputSerializer, WholeValueField
from games.selectors.clock import CLOCK_STATUS_LABELS
from games.services.clock import MAX_EXTENSION_MINUTES, MAX_REASON_LENGTH


@extend_schema_field(OpenApiTypes.STR)
class ClockReasonField(WholeValueField):
    """Why (stripped); an extension needs one, a pause may go without."""

    def __init__(self, *, needed: bool, **kw: Any) -> None:
        super().__init__(**kw)
        self.needed = needed

    def to_internal_value(self, data: object) -> str:
        text = data.strip() if isinstance(data, str) else ""
        if self.needed and not text:
            raise ValidationError(
                _("Give a reason for the extra time."), code="clock_reason_required"
            )
        if len(text) > MAX_REASON_LENGTH:
            raise ValidationError(
                _("The reason may be at most %(limit)s characters."),
                code="clock_reason_too_long",
                params={"limit": MAX_REASON_LENGTH},
            )
        return text


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": MAX_EXTENSION_MINUTES})
class ExtensionMinutesField(WholeValueField):
    """Whole minutes from 1 to ``MAX_EXTENSION_MINUTES`` (a JSON number or digits)."""

    def to_internal_value(self, data: object) -> int:
        try:
            return parse_int(data, field="minutes", minimum=1, maximum=MAX_EXTENSION_MINUTES)
        except ApplicationError:
            raise ValidationError(
                _("Extra time must be a whole number of minutes from 1 to %(most)s."),
                code="clock_extension_minutes",
                params={"most": MAX_EXTENSION_MINUTES},
            ) from None


class ClockPauseInputSerializer(InputSerializer):
    reason = ClockReasonField(needed=False, help_text="Why the clock stops (optional).")


class ClockExtendInputSerializer(InputSerializer):
    # Minutes first: a request wrong in both is refused for its minutes.
    minutes = ExtensionMinutesField(help_text="Extra minutes, 1 to 60.")
    reason = ClockReasonField(needed=True, help_text="Why the table gets extra time.")


class ClockExtensionSerializer(serializers.Serializer):
    """Extra time a judge gave (``games.selectors.clock.ClockExtension``)."""

    minutes = serializers.IntegerField(allow_null=True, help_text="Extra clock minutes given.")
    reason = serializers.CharField(allow_blank=True, help_text="The judge's reason, as written.")
    at = serializers.DateTimeField(help_text="When the time was given.")
    by = serializers.CharField(
        allow_blank=True, help_text="The judge's username ('' when the account is gone)."
    )


class ClockStateSerializer(serializers.Serializer):
    """The clock API's answer (``games.api_clock.clock_payload``)."""

    status = serializers.ChoiceField(choices=list(CLOCK_STATUS_LABELS))
    status_label = serializers.CharField()
    elapsed_s = serializers.FloatField()
    remaining_s = serializers.FloatField()
    limit_s = serializers.FloatField()
    alert_s = serializers.FloatField()
    server_time = serializers.DateTimeField()
    extensions = ClockExtensionSerializer(many=True, help_text="Extra time given, oldest first.")
    paused = serializers.BooleanField()
    paused_reason = serializers.CharField()
    paused_by = serializers.CharField(
        help_text="While paused: the judge who paused it (full name, else username)."
    )
    speed = serializers.FloatField(help_text="Clock minutes per real minute.")
