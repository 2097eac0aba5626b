"""Shapes of the statistics API (also its OpenAPI schema)."""

from __future__ import annotations

from rest_framework import serializers

from ratings.serializers import RatingChangeSerializer


class TeamCountSerializer(serializers.Serializer):
    YB = serializers.IntegerField()
    RG = serializers.IntegerField()


class GameStatsSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    winner = serializers.CharField(allow_null=True)
    entries = serializers.IntegerField()
    minutes = serializers.FloatField(allow_null=True)
    seconds_per_entry = serializers.FloatField(allow_null=True)
    hits_given = TeamCountSerializer()
    hits_taken = TeamCountSerializer()
    cards = serializers.DictField(child=serializers.IntegerField(), help_text="Plays per card.")
    cards_by_seat = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="Plays per card for each seat (Y, R, B, G).",
    )
    discards = serializers.IntegerField()
    discarded_cards = serializers.IntegerField()
    swaps = serializers.IntegerField()
    splits = serializers.IntegerField(help_text="7s split over more than one pawn.")
    final_gap = serializers.IntegerField(allow_null=True)
    comeback = serializers.BooleanField()
    distance = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="[YB, RG] remaining distance at the start and after each entry.",
    )
    locked = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="[YB, RG] locked pawns at the start and after each entry.",
    )


class SummarySerializer(serializers.Serializer):
    games = serializers.IntegerField()
    entries = serializers.IntegerField()
    entries_per_game = serializers.FloatField(allow_null=True)
    minutes_per_game = serializers.FloatField(allow_null=True)
    seconds_per_entry = serializers.FloatField(allow_null=True)
    hits = serializers.IntegerField()
    cards = serializers.DictField(child=serializers.IntegerField())
    discards = serializers.IntegerField()
    discarded_cards = serializers.IntegerField()
    swaps = serializers.IntegerField()
    splits = serializers.IntegerField()
    comebacks = serializers.ListField(child=serializers.IntegerField(), help_text="Game ids.")
    longest = serializers.ListField(child=serializers.IntegerField(), help_text="Game ids.")
    closest = serializers.ListField(child=serializers.IntegerField(), help_text="Game ids.")
    locked_winners = serializers.ListField(
        child=serializers.FloatField(),
        help_text="Average locked pawns of the winning team after 0, 10, ... 100 % of the entries.",
    )
    locked_losers = serializers.ListField(
        child=serializers.FloatField(), help_text="The same for the losing team."
    )


class StatsPageSerializer(serializers.Serializer):
    summary = SummarySerializer()
    games = GameStatsSerializer(many=True)


class RatedPlayerSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    rating = serializers.FloatField(allow_null=True)
    sigma = serializers.FloatField(allow_null=True)
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    hits_given = serializers.IntegerField(help_text="Pawns hit by the player's side (logs).")
    hits_taken = serializers.IntegerField(help_text="Pawns of the player's side hit (logs).")
    comebacks = serializers.IntegerField()
    cards = serializers.DictField(
        child=serializers.IntegerField(), help_text="Plays per card by the player (logs)."
    )
    history = RatingChangeSerializer(many=True)
