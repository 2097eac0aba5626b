"""What the judging API answers, as serializers: the OpenAPI schema's true shapes.

The views hand the selectors' values through these only for the schema; the
shapes are kept honest by tests/judging/test_api_answers.py, which checks
every answer of the judging API against the published schema, with no
undeclared field and no missing one.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.selectors.clock import CLOCK_STATUS_LABELS
from games.serializers import EventSerializer
from games.serializers_clock import ClockExtensionSerializer
from judging.models import JudgeCall


class CallAnswer(serializers.Serializer):
    """A judge call as the dashboard and the table show it."""

    id = serializers.IntegerField()
    game_id = serializers.IntegerField()
    table = serializers.IntegerField()
    status = serializers.ChoiceField(choices=JudgeCall.Status.choices)
    status_label = serializers.CharField(help_text="The status in the request's language.")
    seq = serializers.IntegerField(allow_null=True, help_text="The entry the call is about.")
    entry = serializers.CharField(allow_blank=True, help_text="That entry's text.")
    reason = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    created_at_local = serializers.CharField(help_text="HH:MM, the event's time zone.")
    taken_by = serializers.CharField(allow_blank=True, help_text="The judge on the way.")
    taken_at_local = serializers.CharField(allow_blank=True)
    paused_clock = serializers.BooleanField(help_text="The call paused the table's clock.")


class OpenCallAnswer(CallAnswer):
    review_url = serializers.CharField(help_text="The review page at the call's entry.")


class CallsAnswer(serializers.Serializer):
    calls = OpenCallAnswer(many=True, help_text="Open and taken calls, oldest first.")


class CallClosingAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=JudgeCall.Status.choices)
    closed_now = serializers.BooleanField(help_text="False: it was closed already.")
    clock = serializers.CharField(help_text="The table clock's status after closing.")
    message_en = serializers.CharField()
    message_da = serializers.CharField()


class CallClosedAnswer(CallAnswer):
    closing = CallClosingAnswer()


class RulingLogEntry(serializers.Serializer):
    seq = serializers.IntegerField()
    text = serializers.CharField(help_text="The judge entry in the log, e.g. '! WARN Y P2'.")


class RulingAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    game_id = serializers.IntegerField()
    kind = serializers.CharField()
    kind_label = serializers.CharField()
    rule = serializers.CharField(allow_blank=True, help_text="A RULES.md id.")
    seat = serializers.CharField(allow_blank=True)
    entry_seq = serializers.IntegerField(allow_null=True)
    entries = RulingLogEntry(many=True, help_text="The judge entries the ruling logged.")
    reason = serializers.CharField()
    judge = serializers.CharField(allow_blank=True)
    undone = serializers.BooleanField(help_text="Undone by a later ruling (J2).")
    created_at = serializers.DateTimeField()
    created_at_local = serializers.CharField()


class RulingMadeAnswer(RulingAnswer):
    call_closing = CallClosingAnswer(
        allow_null=True, help_text="The judge call the ruling answered and closed, if any."
    )


class RulingsAnswer(serializers.Serializer):
    rulings = RulingAnswer(many=True)


class TableJudgeAnswer(serializers.Serializer):
    call = CallAnswer(allow_null=True, help_text="The table's open call.")
    rulings = RulingAnswer(many=True)


class AlertAckAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    acknowledged_by = serializers.CharField(allow_blank=True)
    acknowledged_at = serializers.DateTimeField(allow_null=True)


class AlertsAckAnswer(serializers.Serializer):
    acknowledged = serializers.IntegerField(help_text="How many alerts this call acknowledged.")


class VoidConflictAnswer(serializers.Serializer):
    entry = serializers.IntegerField()
    move = serializers.CharField()
    rule = serializers.CharField()
    message = serializers.CharField()
    message_da = serializers.CharField()


class VoidCheckAnswer(serializers.Serializer):
    affected = VoidConflictAnswer(many=True, help_text="Later entries the void makes illegal.")


def _seat_lists(**options: Any) -> serializers.DictField:
    return serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), **options
    )


class TeamStanding(serializers.Serializer):
    distance = serializers.IntegerField(allow_null=True, help_text="Steps left to finish.")
    locked = serializers.IntegerField(allow_null=True)


class AdjudicationAnswer(serializers.Serializer):
    source = serializers.ChoiceField(  # type: ignore[assignment]  # a field, not Field.source
        choices=["log", "result", "none"],
        help_text="Measured on the logged position, from the recorded result's numbers, "
        "or nothing to measure (no winner, no teams).",
    )
    winner = serializers.CharField(allow_null=True, help_text="None also when level.")
    order = serializers.CharField(help_text="The event's tie-break order of W3.")
    rule = serializers.CharField()
    teams = serializers.DictField(child=TeamStanding(), allow_null=True)
    reason_en = serializers.CharField()
    reason_da = serializers.CharField()
    position = _seat_lists(required=False, help_text="The logged position (source log).")
    locked = _seat_lists(required=False, help_text="Its locked pawns (source log).")


class ReviewNav(serializers.Serializer):
    first = serializers.IntegerField()
    prev = serializers.IntegerField()
    next = serializers.IntegerField()
    last = serializers.IntegerField()


class LoggedEntry(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.CharField(allow_blank=True)
    text = serializers.CharField()
    hash = serializers.CharField()
    short_hash = serializers.CharField()
    events = EventSerializer(many=True, help_text="The pawns the entry hit or locked.")
    created_at = serializers.DateTimeField()
    mark = serializers.CharField(allow_blank=True, help_text="Voided, kept or undone.")


class ReviewEntry(LoggedEntry):
    judge = serializers.BooleanField(help_text="A judge entry ('! …').")
    words = serializers.CharField(
        allow_blank=True, help_text="A judge entry in words, in the request's language."
    )


class ReviewVerdict(serializers.Serializer):
    ok = serializers.BooleanField()
    rule = serializers.CharField(allow_blank=True)
    message = serializers.CharField()


class ReviewedEntry(LoggedEntry):
    highlight = serializers.ListField(child=serializers.CharField())
    verdict = ReviewVerdict(allow_null=True, help_text="The engine's verdict from the position.")
    rule = serializers.CharField(allow_blank=True)
    rule_text = serializers.CharField(allow_blank=True)
    rule_html = serializers.CharField(allow_blank=True)
    rule_language = serializers.CharField(allow_blank=True)
    card = serializers.CharField(allow_null=True)
    legal = serializers.ListField(child=serializers.CharField())
    seat_to_move = serializers.CharField(allow_null=True)


class ReviewAnswer(serializers.Serializer):
    game_id = serializers.IntegerField()
    at = serializers.IntegerField()
    count = serializers.IntegerField()
    nav = ReviewNav()
    position = _seat_lists()
    seats = serializers.ListField(child=serializers.CharField())
    locked = _seat_lists()
    to_move = serializers.CharField(allow_null=True)
    hand_sizes = serializers.DictField(child=serializers.IntegerField())
    winner = serializers.CharField(allow_null=True)
    entries = ReviewEntry(many=True)
    entry = ReviewedEntry(allow_null=True, help_text="The entry at ``at`` (none at 0).")
    status = serializers.CharField()


class IncidentCall(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    reason = serializers.CharField(allow_blank=True)
    entry = serializers.CharField(allow_blank=True)
    at = serializers.CharField()


class IncidentRefusal(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    seat = serializers.CharField()
    text = serializers.CharField()
    rule = serializers.CharField(allow_blank=True)
    at = serializers.CharField()


class IncidentRuling(RulingAnswer):
    round = serializers.IntegerField()


class PairIncidents(serializers.Serializer):
    pair_id = serializers.IntegerField()
    pair = serializers.CharField()
    calls = IncidentCall(many=True)
    refusals = IncidentRefusal(many=True)
    penalties = IncidentRuling(many=True)
    rulings = IncidentRuling(many=True)


class IncidentsAnswer(serializers.Serializer):
    pairs = PairIncidents(many=True)


class PredictionAnswer(serializers.Serializer):
    """The overrun prediction (empty before the game has moved)."""

    known = serializers.BooleanField(required=False)
    elapsed_s = serializers.FloatField(required=False)
    stuck = serializers.BooleanField(required=False)
    predicted_finish_s = serializers.FloatField(required=False, allow_null=True)
    overrun_s = serializers.FloatField(required=False, allow_null=True)
    progress = serializers.FloatField(required=False, allow_null=True)


class DashboardClock(serializers.Serializer):
    status = serializers.ChoiceField(choices=list(CLOCK_STATUS_LABELS))
    elapsed_s = serializers.FloatField()
    remaining_s = serializers.FloatField()
    limit_s = serializers.FloatField()
    alert_s = serializers.FloatField()
    speed = serializers.FloatField()
    server_time = serializers.DateTimeField()
    extensions = ClockExtensionSerializer(many=True, help_text="Extra time given, oldest first.")
    paused = serializers.BooleanField()
    paused_reason = serializers.CharField(allow_blank=True)


class DashboardTableAlert(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    open = serializers.BooleanField()


class DashboardTable(serializers.Serializer):
    game_id = serializers.IntegerField()
    table = serializers.IntegerField()
    pair_yb = serializers.CharField()
    pair_rg = serializers.CharField()
    status = serializers.CharField()
    status_label = serializers.CharField()
    clock = DashboardClock()
    moves = serializers.IntegerField()
    progress = serializers.FloatField(allow_null=True)
    prediction = PredictionAnswer()
    prediction_label = serializers.CharField(allow_blank=True)
    alerts = DashboardTableAlert(many=True)
    open_alerts = serializers.IntegerField()


class DashboardAlert(serializers.Serializer):
    id = serializers.IntegerField()
    game_id = serializers.IntegerField()
    table = serializers.IntegerField()
    kind = serializers.CharField()
    kind_label = serializers.CharField()
    mark_minute = serializers.IntegerField()
    raised_at = serializers.DateTimeField()
    raised_at_local = serializers.CharField()
    open = serializers.BooleanField()
    acknowledged_by = serializers.CharField(allow_blank=True)
    acknowledged_at_local = serializers.CharField(allow_blank=True)
    prediction = PredictionAnswer()
    prediction_short = serializers.CharField(allow_blank=True)
    rank = serializers.IntegerField(allow_null=True)


class AlertGroupEntry(serializers.Serializer):
    id = serializers.IntegerField()
    ids = serializers.ListField(
        child=serializers.IntegerField(), help_text="Acknowledged together (superseded marks)."
    )
    table = serializers.IntegerField()
    game_id = serializers.IntegerField()
    short = serializers.CharField(allow_blank=True)


class AlertGroup(serializers.Serializer):
    key = serializers.CharField()
    kind = serializers.CharField()
    mark_minute = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label
    entries = AlertGroupEntry(many=True)


class DashboardAnswer(serializers.Serializer):
    tournament = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    server_time = serializers.DateTimeField()
    tables = DashboardTable(many=True, help_text="Most urgent first.")
    alerts = DashboardAlert(many=True)
    alert_groups = AlertGroup(many=True)
