"""Shapes of the games API: requests checked here, answers for the OpenAPI schema.

The move log's input serializers check and convert the table's requests
(client id, entry numbers, pair side); the services take the typed values.
The entry's text is read by the services: a refused text is a notation
refusal (rule N, 422), not a malformed request.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api_errors import ApiErrorBodySerializer
from core.errors import ApplicationError
from core.request import parse_int
from core.ruleset_field import RulesetField
from core.validation import InputSerializer, WholeValueField, refusal
from games.models import MAX_ENTRY_NUMBER, Game
from games.selectors.clock import CLOCK_STATUS_LABELS

CLIENT_ID_RE = re.compile(r"^[A-Za-z0-9_.:-]{8,64}$")


@extend_schema_field(OpenApiTypes.STR)
class ClientIdField(WholeValueField):
    """The device's id of a write: 8–64 letters, digits, '-', '_', '.', ':'."""

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str) or not CLIENT_ID_RE.match(data):
            raise ValidationError(
                _("The entry has no valid client id (8–64 letters, digits, '-', '_', '.', ':')."),
                code="client_id_invalid",
            )
        return data


@extend_schema_field({"type": "string", "enum": ["YB", "RG"]})
class PairSideField(WholeValueField):
    def to_internal_value(self, data: object) -> str:
        if data not in ("YB", "RG"):
            raise ValidationError(
                _("pair_side is YB (Yellow/Blue) or RG (Red/Green)."), code="pair_side_invalid"
            )
        return str(data)


@extend_schema_field(OpenApiTypes.INT)
class EntryNumberField(WholeValueField):
    """An entry number of the log (``core.request.parse_int``: ``<field>_invalid``)."""

    def __init__(self, *, minimum: int, **options: Any) -> None:
        super().__init__(**options)
        self.minimum = minimum

    def to_internal_value(self, data: object) -> int:
        try:
            return parse_int(
                data, field=self.field_name or "", minimum=self.minimum, maximum=MAX_ENTRY_NUMBER
            )
        except ApplicationError as error:
            raise refusal(error) from None


def _entry_text() -> serializers.CharField:
    return serializers.CharField(
        allow_blank=True,
        trim_whitespace=False,
        help_text="'5: Y3+5' (seat to move), 'Y 5: Y3+5' (seat named), or a discard "
        "'X: 2 3 9 12'; at most 100 characters (else refused as rule N).",
    )


def _answer_language() -> serializers.CharField:
    return serializers.CharField(
        required=False, help_text="da or en: the answer's language (else the request's)."
    )


class EntrySubmitSerializer(InputSerializer):
    client_id = ClientIdField(help_text="Made by the device; a retry sends the same id.")
    expected_seq = EntryNumberField(
        minimum=0, help_text="Sequence number of the last entry the device knows (0: none)."
    )
    text = _entry_text()
    lang = _answer_language()


class EntryPreviewSerializer(InputSerializer):
    text = _entry_text()
    lang = _answer_language()


class TakeBackSerializer(InputSerializer):
    client_id = ClientIdField()
    seq = EntryNumberField(minimum=1, help_text="The last entry's sequence number.")


class ConfirmSerializer(InputSerializer):
    pair_side = PairSideField(help_text="YB (Yellow/Blue) or RG (Red/Green).")
    client_id = ClientIdField()


_POSITION_HELP = (
    "Per colour (DUO: per home area YK, RK, YO, RO), the locations of its pawns, "
    'e.g. {"Y": ["YH", "YS", "Y3", "YM1"], …} (NOTATION.md Position; '
    "docs/api.md for DUO codes)."
)


def _position(help_text: str = _POSITION_HELP) -> serializers.DictField:
    return serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), help_text=help_text
    )


class EventSerializer(serializers.Serializer):
    """Something an entry did (``games.engine.Event``, NOTATION.md)."""

    type = serializers.ChoiceField(
        choices=["hit", "lock"], help_text="hit: a pawn sent home; lock: a pawn locked."
    )
    colour = serializers.CharField(
        help_text="Whose pawn: a seat (Y, R, B, G), in DUO a home area (YK, RK, YO, RO)."
    )
    at = serializers.CharField(help_text="The location, e.g. 'Y8' or 'YM1' (RULES B5).")


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


class TableRulingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["void", "undo", "position", "penalty", "warning"])
    reason = serializers.CharField(help_text="The judge's reason, as written.")
    judge = serializers.CharField(help_text="The judge's full name, else the username.")
    log = serializers.ListField(
        child=serializers.CharField(), help_text="The judge entries it wrote, e.g. '! VOID 12'."
    )
    at = serializers.DateTimeField()


class GameResultSerializer(serializers.Serializer):
    """The result the game row holds (``games.selectors.state.GameResult``)."""

    winner = serializers.ChoiceField(choices=["YB", "RG"], allow_null=True)
    source = serializers.ChoiceField(  # type: ignore[assignment]  # a field, not Field.source
        choices=[(value, label) for value, label in Game.ResultSource.choices if value],
        allow_null=True,
        help_text="Where the result came from; null while there is none.",
    )
    finished = serializers.BooleanField()


class LogErrorSerializer(serializers.Serializer):
    """An entry the engine refused on replay (``games.engine.ReplayError``)."""

    index = serializers.IntegerField(help_text="The entry's place in the replayed log, from 0.")
    move = serializers.CharField(help_text="The entry's text.")
    rule = serializers.CharField(help_text="A RULES.md rule id ('N': unreadable).")
    message = serializers.CharField(help_text="In English.")
    message_da = serializers.CharField(help_text="In Danish.")


class GameStateSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    tournament = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    status = serializers.CharField()
    ruleset = RulesetField()
    first_dealer = serializers.CharField()
    seats = serializers.ListField(
        child=serializers.CharField(), help_text="The ruleset's seats in playing order."
    )
    teams = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="The seats of each side (YB, RG).",
    )
    seq = serializers.IntegerField(help_text="Sequence number of the last active entry.")
    last_hash = serializers.CharField()
    short_hash = serializers.CharField(help_text="First 8 hex digits of the last entry's hash.")
    position = _position()
    locked = _position(
        "Per seat, the goal circles of its locked pawns (DUO: both its areas' circles)."
    )
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
    confirmations = serializers.DictField(
        child=serializers.BooleanField(), help_text="Per side (YB, RG): it confirmed the result."
    )
    result = GameResultSerializer()
    log_error = LogErrorSerializer(
        allow_null=True, help_text="The first entry the engine refuses on replay; null: none."
    )
    server_time = serializers.DateTimeField()
    entries = EntrySerializer(many=True, required=False)
    rulings = TableRulingSerializer(
        many=True,
        required=False,
        help_text="The table's state only: the judge's latest rulings on the game "
        "(void, undo, correction, penalty, warning), newest last.",
    )


class SubmitAnswerSerializer(serializers.Serializer):
    created = serializers.BooleanField()
    entry = EntrySerializer()
    state = GameStateSerializer()
    state_etag = serializers.CharField(
        help_text="The ETag of this state as GET …/state/?tail=20 answers it (empty if unknown)."
    )


class PawnChangeSerializer(serializers.Serializer):
    """The pawns of one colour (DUO: one home area) an entry would move."""

    colour = serializers.CharField(help_text="A seat (Y, R, B, G), in DUO a home area.")

    def get_fields(self) -> dict[str, serializers.Field]:
        # "from" is a Python keyword, so these two are added here, not declared.
        fields = super().get_fields()
        fields["from"] = serializers.ListField(
            child=serializers.CharField(), help_text="Locations left, e.g. ['YH']."
        )
        fields["to"] = serializers.ListField(
            child=serializers.CharField(), help_text="Locations reached, e.g. ['YS']."
        )
        return fields


class PreviewAnswerSerializer(serializers.Serializer):
    entry = serializers.CharField(help_text="The canonical entry, e.g. 'Y 5: Y3+5'.")
    changes = PawnChangeSerializer(many=True)
    events = EventSerializer(many=True)
    position = _position("The position the entry would leave (as the state's position).")
    winner = serializers.CharField(allow_null=True)


class GameRecordSerializer(serializers.Serializer):
    ruleset = RulesetField()
    first_dealer = serializers.ChoiceField(choices=["Y", "R", "B", "G"])
    players = serializers.DictField(child=serializers.CharField(), required=False)
    moves = serializers.ListField(child=serializers.CharField())


class ErrorBodySerializer(ApiErrorBodySerializer):
    """A refusal of the table and games API: the project's shape, and what only
    a move's refusal carries."""

    move = serializers.CharField(required=False, help_text="The refused entry, canonical.")
    index = serializers.IntegerField(
        required=False, help_text="A judge's entry refused on replay: its place, from 0."
    )
    state = GameStateSerializer(
        required=False, help_text="A stale write (409 stale_sequence): the table's state now."
    )


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
    seq = serializers.IntegerField(help_text="Entries in the log, judge entries included.")
    moves = serializers.IntegerField(
        help_text="The players' entries that stand: no judge entry, no voided entry."
    )
    call = serializers.ChoiceField(
        choices=["open", "taken"],
        allow_null=True,
        help_text="The table's open judge call: waiting for a judge, or a judge on the way.",
    )
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
