"""Shapes of the games API for the OpenAPI schema.

The services check every value themselves (with bilingual errors); these
serializers document requests and answers.
"""

from __future__ import annotations

from rest_framework import serializers

from games.services.clock import CLOCK_STATUS_LABELS


class EntrySubmitSerializer(serializers.Serializer):
    client_id = serializers.CharField(
        max_length=64, help_text="Made by the device; a retry sends the same id."
    )
    expected_seq = serializers.IntegerField(
        min_value=0, help_text="Sequence number of the last entry the device knows (0: none)."
    )
    text = serializers.CharField(
        max_length=100,
        help_text="'5: Y3+5' (seat to move), 'Y 5: Y3+5' (seat named), or a discard 'X: 2 3 9 12'.",
    )
    lang = serializers.ChoiceField(choices=["da", "en"], required=False)


class EntryPreviewSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=100)
    lang = serializers.ChoiceField(choices=["da", "en"], required=False)


class TakeBackSerializer(serializers.Serializer):
    client_id = serializers.CharField(max_length=64)
    seq = serializers.IntegerField(min_value=1, help_text="The last entry's sequence number.")


class ConfirmSerializer(serializers.Serializer):
    pair_side = serializers.ChoiceField(choices=["YB", "RG"])
    client_id = serializers.CharField(max_length=64)


class EventSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["hit", "lock"])
    colour = serializers.CharField()
    at = serializers.CharField()


class EntrySerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.CharField()
    text = serializers.CharField(help_text="Canonical entry, e.g. 'Y 5: Y3+5'.")
    hash = serializers.CharField()
    short_hash = serializers.CharField()
    events = EventSerializer(many=True)
    created_at = serializers.DateTimeField()


class LegalEffectsSerializer(serializers.Serializer):
    effects = serializers.ListField(
        child=serializers.CharField(), help_text="Unique effect strings, e.g. 'Y3>Y8 Y8>RH hR@Y8'."
    )
    by_card = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=0)),
        help_text="Per card, the index in effects of each legal entry's effect, in the "
        "order of legal_entries[card].",
    )


class GameStateSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    tournament = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    status = serializers.CharField()
    ruleset = serializers.CharField()
    first_dealer = serializers.CharField()
    seq = serializers.IntegerField(help_text="Sequence number of the last active entry.")
    last_hash = serializers.CharField()
    short_hash = serializers.CharField(help_text="First 8 hex digits of the last entry's hash.")
    position = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    locked = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    to_move = serializers.CharField(allow_null=True)
    dealer = serializers.CharField()
    hand_sizes = serializers.DictField(child=serializers.IntegerField())
    deal_number = serializers.IntegerField(
        help_text="The dealer's deal now played: 1, 2 or 3 (RULES D5)."
    )
    penalised = serializers.ListField(
        child=serializers.CharField(), help_text="Seats dealt the P1 penalty hand at the next deal."
    )
    cards_seen = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Per card, how often it was played or discarded since the shuffle (RULES D6).",
    )
    winner = serializers.CharField(allow_null=True)
    distance = serializers.DictField(child=serializers.IntegerField())
    legal_entries = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        allow_null=True,
        help_text="Legal canonical moves per card for the seat to move; null in the "
        "answer to a write (fetch the state for them).",
    )
    legal_effects = LegalEffectsSerializer(
        allow_null=True,
        help_text="What each legal entry does, null exactly when legal_entries is null. "
        "by_card[card][k] indexes effects for legal_entries[card][k]; an effect is "
        "space-separated tokens: 'Y3>Y8' a pawn moved (before > after the entry), "
        "'hR@Y8' a pawn of R hit home from Y8, 'lY@YM1' a pawn of Y locks on YM1, "
        "'wYB' the entry wins for YB (docs/move-log.md).",
    )
    confirmations = serializers.DictField(child=serializers.BooleanField())
    result = serializers.DictField()
    log_error = serializers.DictField(allow_null=True)
    server_time = serializers.DateTimeField()
    entries = EntrySerializer(many=True, required=False)


class SubmitAnswerSerializer(serializers.Serializer):
    created = serializers.BooleanField()
    entry = EntrySerializer()
    state = GameStateSerializer()
    state_etag = serializers.CharField(
        help_text="The ETag of this state as GET …/state/?tail=20 answers it (empty if unknown)."
    )


class PreviewAnswerSerializer(serializers.Serializer):
    entry = serializers.CharField()
    changes = serializers.ListField(child=serializers.DictField())
    events = EventSerializer(many=True)
    position = serializers.DictField()
    winner = serializers.CharField(allow_null=True)


class GameRecordSerializer(serializers.Serializer):
    ruleset = serializers.CharField()
    first_dealer = serializers.ChoiceField(choices=["Y", "R", "B", "G"])
    players = serializers.DictField(child=serializers.CharField(), required=False)
    moves = serializers.ListField(child=serializers.CharField())


class ErrorBodySerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A RULES.md rule id for an illegal move, else a code.")
    message = serializers.CharField()
    message_en = serializers.CharField()
    message_da = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    error = ErrorBodySerializer()


class HallClockSerializer(serializers.Serializer):
    """The fields of the clock API (``/api/games/<id>/clock/``) a display counts from."""

    status = serializers.ChoiceField(choices=list(CLOCK_STATUS_LABELS))
    status_label = serializers.CharField(help_text="The status in the request's language.")
    elapsed_s = serializers.FloatField(help_text="Clock seconds played at server_time.")
    remaining_s = serializers.FloatField()
    limit_s = serializers.FloatField()
    alert_s = serializers.FloatField(help_text="The judge alert mark (50 minutes + extensions).")
    speed = serializers.FloatField(help_text="Clock minutes per real minute.")
    server_time = serializers.DateTimeField(
        help_text="When the clock was read: a running clock counts on from here."
    )


class HallTableSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    table = serializers.IntegerField()
    status = serializers.CharField()
    pair_yb = serializers.CharField()
    pair_rg = serializers.CharField()
    seq = serializers.IntegerField()
    distance = serializers.DictField(child=serializers.IntegerField())
    progress = serializers.DictField(child=serializers.IntegerField())
    locked = serializers.DictField(child=serializers.IntegerField())
    winner = serializers.CharField(allow_null=True)
    elapsed_s = serializers.IntegerField(
        allow_null=True, help_text="Real seconds since the game started."
    )
    to_move = serializers.CharField(allow_null=True)
    clock = HallClockSerializer()


class HallSerializer(serializers.Serializer):
    round = serializers.IntegerField(allow_null=True)
    server_time = serializers.DateTimeField(
        help_text="When this answer was made (a shared copy is served for up to 2 s)."
    )
    tables = HallTableSerializer(many=True)
