"""API shapes. Output serializers describe what is read; input serializers
check and convert a request (each field's limits in ``tournament.validators``)
so the services take typed values and hold the business rules only."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from core.ruleset_field import RulesetField
from core.validation import InputSerializer
from games.models import Game
from games.validators import MAX_NOTE, RESULT_VALIDATORS
from people.selectors_public import PublicNames, public_names
from tournament.models import (
    TIEBREAK_CHOICES,
    TOURNAMENT_SETTINGS,
    Bye,
    Pair,
    Player,
    Round,
    Tournament,
    TournamentRole,
)
from tournament.validators import (
    PAIR_TEXT_LIMITS,
    PAIR_VALIDATORS,
    SETTING_VALIDATORS,
)

# --------------------------------------------------------------------------
# Output


class TournamentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = ["slug", *TOURNAMENT_SETTINGS, "data_version"]

    tiebreaks = serializers.ListField(child=serializers.ChoiceField(choices=TIEBREAK_CHOICES))


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "person"]
        extra_kwargs = {"person": {"help_text": "The same human across events (people app)."}}


class PairBriefSerializer(serializers.ModelSerializer):
    display_name = serializers.CharField(read_only=True)

    class Meta:
        model = Pair
        fields = ["id", "start_number", "display_name"]


class PairSerializer(serializers.ModelSerializer):
    display_name = serializers.CharField(read_only=True)
    player_1 = PlayerSerializer()
    # Null for an entrant of a singles event.
    player_2 = PlayerSerializer(allow_null=True)

    class Meta:
        model = Pair
        fields = [
            "id", "start_number", "name", "display_name", "player_1", "player_2", "club", "seed",
            "rating", "status", "first_round", "fixed_table",
        ]  # fmt: skip

    def to_representation(self, pair: Pair) -> dict[str, Any]:
        """The event's pair as its pages show it; to anyone but its judges and organisers
        (context ``staff``) without what is about a player who is not public: the person
        id (which links their events together) and the rating (``pair_public_fields``)."""
        data: dict[str, Any] = super().to_representation(pair)
        if self.context.get("staff"):
            return data
        names = self.context.get("names") or public_names(pairs=[pair])
        return pair_public_fields(data, pair, names)


def pair_public_fields(data: dict[str, Any], pair: Pair, names: PublicNames) -> dict[str, Any]:
    for key, player in (("player_1", pair.player_1), ("player_2", pair.player_2)):
        if data.get(key) and not names.is_public(player):
            data[key]["person"] = None
    if not names.pair_is_public(pair):
        # Typed by the organiser or made by "Seed by rating" from the players' ratings.
        data["rating"] = None
    return data


class GameSerializer(serializers.ModelSerializer):
    round_number = serializers.IntegerField(source="round.number", read_only=True)
    pair_yb = PairBriefSerializer()
    pair_rg = PairBriefSerializer()

    class Meta:
        model = Game
        fields = [
            "id", "round", "round_number", "table_number", "pair_yb", "pair_rg", "first_dealer",
            "bracket_slot", "status", "started_at", "finished_at", "winner", "result_source",
            "locked_yb", "locked_rg", "distance_yb", "distance_rg", "timed_out", "result_note",
            "result_override",
        ]  # fmt: skip


class ByeSerializer(serializers.ModelSerializer):
    pair = PairBriefSerializer()

    class Meta:
        model = Bye
        fields = ["pair", "points", "bracket_slot"]


class MessageSerializer(serializers.Serializer):
    code = serializers.CharField(required=False)
    en = serializers.CharField()
    da = serializers.CharField()


class RoundSerializer(serializers.ModelSerializer):
    warnings = MessageSerializer(many=True)
    explanation = serializers.DictField(
        child=MessageSerializer(), help_text="A short explanation per table number."
    )
    byes = ByeSerializer(many=True)

    class Meta:
        model = Round
        fields = [
            "id", "number", "kind", "knockout_stage", "bracket_matches", "status", "random_seed",
            "pairing_method", "warnings", "explanation", "byes", "created_at", "published_at",
            "started_at", "closed_at",
        ]  # fmt: skip


class RoundDetailSerializer(RoundSerializer):
    games = GameSerializer(many=True)

    class Meta(RoundSerializer.Meta):
        fields = [*RoundSerializer.Meta.fields, "games"]


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    pair = PairBriefSerializer()
    points = serializers.IntegerField()
    games_played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    buchholz = serializers.IntegerField()
    locked_for = serializers.IntegerField()
    locked_against = serializers.IntegerField()
    locked_diff = serializers.IntegerField()
    distance_for = serializers.IntegerField()
    distance_against = serializers.IntegerField()
    distance_diff = serializers.IntegerField()
    head_to_head = serializers.IntegerField(allow_null=True)
    tiebreak_note_en = serializers.CharField()
    tiebreak_note_da = serializers.CharField()
    shared_rank = serializers.BooleanField()
    dropped = serializers.BooleanField()


class BracketMatchSerializer(serializers.Serializer):
    slot = serializers.IntegerField()
    pair_a = PairBriefSerializer(allow_null=True)
    pair_b = PairBriefSerializer(allow_null=True)
    winner = PairBriefSerializer(allow_null=True)
    game = serializers.IntegerField(source="game_id", allow_null=True)
    is_third_place = serializers.BooleanField()
    is_bye = serializers.BooleanField()


class BracketRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round_id")
    stage = serializers.IntegerField()
    name_en = serializers.CharField()
    name_da = serializers.CharField()
    matches = BracketMatchSerializer(many=True)


class PairHistoryRowSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round_id")
    round_number = serializers.IntegerField()
    table_number = serializers.IntegerField(allow_null=True)
    opponent = PairBriefSerializer(allow_null=True)
    colours = serializers.CharField()
    result = serializers.CharField()
    points = serializers.IntegerField(allow_null=True)
    game = serializers.IntegerField(source="game_id", allow_null=True)


class RowErrorSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    message_en = serializers.CharField()
    message_da = serializers.CharField()


class ImportReportSerializer(serializers.Serializer):
    created = PairSerializer(many=True)
    # The API's field is named "errors" (an output-only serializer: DRF's
    # ``Serializer.errors``, the validation result, is never read on it).
    errors = RowErrorSerializer(many=True)  # type: ignore[assignment]


# --------------------------------------------------------------------------
# Input


def _setting(field: type[serializers.Field], name: str, **options: Any) -> Any:
    """An optional setting's field with its checks (``tournament.validators``)."""
    return field(required=False, validators=SETTING_VALIDATORS.get(name, []), **options)


class TournamentUpdateInputSerializer(InputSerializer):
    """Any of the settings (``TOURNAMENT_SETTINGS``), each checked on its own."""

    name = _setting(serializers.CharField, "name", max_length=200)
    date = _setting(serializers.DateField, "date")
    venue = _setting(serializers.CharField, "venue", max_length=200, allow_blank=True)
    ruleset = _setting(RulesetField, "ruleset")
    time_limit_minutes = _setting(serializers.IntegerField, "time_limit_minutes")
    alert_minutes = _setting(serializers.IntegerField, "alert_minutes")
    swiss_rounds = _setting(serializers.IntegerField, "swiss_rounds")
    knockout_size = _setting(serializers.IntegerField, "knockout_size")
    third_place_game = _setting(serializers.BooleanField, "third_place_game")
    points_win = _setting(serializers.IntegerField, "points_win")
    points_loss = _setting(serializers.IntegerField, "points_loss")
    points_bye = _setting(serializers.IntegerField, "points_bye")
    tiebreaks = _setting(serializers.ListField, "tiebreaks", child=serializers.CharField())
    adjudication = _setting(serializers.CharField, "adjudication")
    pause_clock_on_call = _setting(serializers.BooleanField, "pause_clock_on_call")
    clock_speed = _setting(serializers.FloatField, "clock_speed")
    published = _setting(serializers.BooleanField, "published")
    language = _setting(serializers.CharField, "language")
    signup_closes_at = _setting(serializers.DateTimeField, "signup_closes_at", allow_null=True)
    signup_capacity = _setting(serializers.IntegerField, "signup_capacity", allow_null=True)
    signup_approval = _setting(serializers.BooleanField, "signup_approval")


class TournamentCreateInputSerializer(TournamentUpdateInputSerializer):
    name = serializers.CharField(max_length=200, validators=SETTING_VALIDATORS["name"])
    date = serializers.DateField()
    slug = _setting(serializers.CharField, "slug", max_length=80)


def _pair_text(name: str, **options: Any) -> Any:
    return serializers.CharField(
        max_length=PAIR_TEXT_LIMITS[name], validators=PAIR_VALIDATORS[name], **options
    )


def _pair_number(name: str) -> Any:
    return serializers.IntegerField(
        required=False, allow_null=True, validators=PAIR_VALIDATORS[name]
    )


class PairUpdateInputSerializer(InputSerializer):
    """Any of a pair's fields; names are one line, inner spaces collapsed."""

    player_1 = _pair_text("player_1", required=False)
    player_2 = _pair_text("player_2", required=False)
    club = _pair_text("club", required=False, allow_blank=True)
    name = _pair_text("name", required=False, allow_blank=True)
    seed = _pair_number("seed")
    rating = _pair_number("rating")

    def to_internal_value(self, data: Any) -> Any:
        values = super().to_internal_value(data)
        return {
            key: " ".join(value.split()) if key in PAIR_TEXT_LIMITS else value
            for key, value in values.items()
        }


class PairCreateInputSerializer(PairUpdateInputSerializer):
    player_1 = _pair_text("player_1")
    # Required for a pairs event; left out in a singles event (the service checks).
    player_2 = _pair_text("player_2", required=False, allow_blank=True)
    check_in = serializers.BooleanField(required=False, default=False)


class PairRowInputSerializer(PairUpdateInputSerializer):
    """One row of a CSV import: every column is text, empty when left out."""

    player_1 = _pair_text("player_1")
    # Required for a pairs event; absent in a singles event's file (the service checks).
    player_2 = _pair_text("player_2", required=False, allow_blank=True, default="")
    club = _pair_text("club", required=False, allow_blank=True, default="")
    name = _pair_text("name", required=False, allow_blank=True, default="")
    seed = serializers.IntegerField(
        required=False, allow_null=True, default=None, validators=PAIR_VALIDATORS["seed"]
    )
    rating = serializers.IntegerField(
        required=False, allow_null=True, default=None, validators=PAIR_VALIDATORS["rating"]
    )

    def to_internal_value(self, data: Any) -> Any:
        # An empty cell is a value left out.
        present = {key: value for key, value in data.items() if str(value).strip()}
        return super().to_internal_value(present)


class PairsImportInputSerializer(InputSerializer):
    csv_text = serializers.CharField(
        max_length=1_000_000,
        trim_whitespace=False,
        help_text="CSV with a header row: player_1,player_2[,club,name,seed,rating], or in a "
        "singles event player[,club,seed,rating]; ',' or ';' delimited.",
    )


class FixedTableInputSerializer(serializers.Serializer):
    table_number = serializers.IntegerField(allow_null=True)


class RoundPairInputSerializer(serializers.Serializer):
    method = serializers.ChoiceField(choices=["auto", "seed", "random"], default="auto")
    random_seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=2**62
    )


class SwapInputSerializer(serializers.Serializer):
    pair_a = serializers.IntegerField(help_text="Pair id")
    pair_b = serializers.IntegerField(help_text="Pair id")
    allow_rematch = serializers.BooleanField(required=False, default=False)


def _result_number(name: str) -> Any:
    return serializers.IntegerField(
        required=False, allow_null=True, default=None, validators=RESULT_VALIDATORS[name]
    )


class ResultInputSerializer(InputSerializer):
    """A typed result; the pawns of the event's side and W1/W3 are the service's."""

    winner = serializers.ChoiceField(choices=["YB", "RG"])
    locked_yb = _result_number("locked_yb")
    locked_rg = _result_number("locked_rg")
    distance_yb = _result_number("distance_yb")
    distance_rg = _result_number("distance_rg")
    timed_out = serializers.BooleanField(required=False, default=False)
    note = serializers.CharField(required=False, allow_blank=True, max_length=MAX_NOTE, default="")
    # Required when a time-out result differs from the W3 adjudication of its numbers.
    override_reason = serializers.CharField(
        required=False, allow_blank=True, max_length=MAX_NOTE, default=""
    )


class ResultClearInputSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class KnockoutInputSerializer(serializers.Serializer):
    # The API's field is named "source"; it shadows DRF's ``Field.source`` (unused on it).
    source = serializers.ChoiceField(  # type: ignore[assignment]
        choices=["standings", "seeds"], default="standings"
    )
    # Required when the cut falls inside a shared rank (409 knockout_cut_tie names the choices).
    cut = serializers.ChoiceField(
        choices=["", "tiebreak", "seed", "playoff"], required=False, default=""
    )
    # Before the planned Swiss rounds are closed the cut is refused (409
    # knockout_swiss_unfinished) unless the organiser chooses to cut early.
    early = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Cut now, before the planned Swiss rounds are all played and closed; "
        "the remaining Swiss rounds are not played.",
    )


class RoleInputSerializer(InputSerializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=TournamentRole.Role.choices)
