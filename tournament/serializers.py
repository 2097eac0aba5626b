"""API shapes. Output serializers describe what is read; input serializers
only type-check a request before the service (which holds every rule) runs."""

from __future__ import annotations

from rest_framework import serializers

from games.models import Game
from tournament.models import (
    TIEBREAK_CHOICES,
    TOURNAMENT_SETTINGS,
    Bye,
    Pair,
    Player,
    Round,
    Tournament,
)

# --------------------------------------------------------------------------
# Output


class ApiErrorBodySerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable error code (a RULES.md id where one applies).")
    message = serializers.CharField(
        help_text="The message in the request's language (Danish by default)."
    )
    message_en = serializers.CharField()
    message_da = serializers.CharField()


class ApiErrorSerializer(serializers.Serializer):
    error = ApiErrorBodySerializer()


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


class TournamentUpdateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    date = serializers.DateField(required=False)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    ruleset = serializers.CharField(required=False)
    time_limit_minutes = serializers.IntegerField(required=False)
    alert_minutes = serializers.IntegerField(required=False)
    swiss_rounds = serializers.IntegerField(required=False)
    knockout_size = serializers.IntegerField(required=False)
    third_place_game = serializers.BooleanField(required=False)
    points_win = serializers.IntegerField(required=False)
    points_loss = serializers.IntegerField(required=False)
    points_bye = serializers.IntegerField(required=False)
    tiebreaks = serializers.ListField(child=serializers.CharField(), required=False)
    adjudication = serializers.CharField(required=False)
    pause_clock_on_call = serializers.BooleanField(required=False)
    clock_speed = serializers.FloatField(required=False)
    published = serializers.BooleanField(required=False)
    language = serializers.CharField(required=False)
    signup_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    signup_capacity = serializers.IntegerField(required=False, allow_null=True)
    signup_approval = serializers.BooleanField(required=False)


class TournamentCreateInputSerializer(TournamentUpdateInputSerializer):
    name = serializers.CharField(max_length=200)
    date = serializers.DateField()
    slug = serializers.CharField(max_length=80, required=False)


class PairUpdateInputSerializer(serializers.Serializer):
    player_1 = serializers.CharField(max_length=120, required=False)
    player_2 = serializers.CharField(max_length=120, required=False)
    club = serializers.CharField(max_length=120, required=False, allow_blank=True)
    name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    seed = serializers.IntegerField(required=False, allow_null=True)
    rating = serializers.IntegerField(required=False, allow_null=True)


class PairCreateInputSerializer(PairUpdateInputSerializer):
    player_1 = serializers.CharField(max_length=120)
    # Required for a pairs event; left out in a singles event (the service checks).
    player_2 = serializers.CharField(max_length=120, required=False, allow_blank=True)
    check_in = serializers.BooleanField(required=False, default=False)


class PairsImportInputSerializer(serializers.Serializer):
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


class ResultInputSerializer(serializers.Serializer):
    winner = serializers.ChoiceField(choices=["YB", "RG"])
    locked_yb = serializers.IntegerField(required=False, allow_null=True)
    locked_rg = serializers.IntegerField(required=False, allow_null=True)
    distance_yb = serializers.IntegerField(required=False, allow_null=True)
    distance_rg = serializers.IntegerField(required=False, allow_null=True)
    timed_out = serializers.BooleanField(required=False, default=False)
    note = serializers.CharField(required=False, allow_blank=True, max_length=500, default="")
    # Required when a time-out result differs from the W3 adjudication of its numbers.
    override_reason = serializers.CharField(
        required=False, allow_blank=True, max_length=500, default=""
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


class RoleInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=["organiser", "judge"])
