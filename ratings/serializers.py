"""Shapes of the ratings API (also its OpenAPI schema)."""

from __future__ import annotations

from rest_framework import serializers


class RatingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField(help_text="The person's id (the player page).")
    name = serializers.CharField()
    club = serializers.CharField()
    rating = serializers.FloatField(help_text="mu - 3 sigma: the rating shown and sorted on.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField(help_text="The uncertainty.")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()


class RatingChangeSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    tournament = serializers.CharField(help_text="The event's slug.")
    round = serializers.IntegerField()
    won = serializers.BooleanField()
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    sigma_after = serializers.FloatField()


class SeedResultSerializer(serializers.Serializer):
    seeded = serializers.IntegerField(help_text="Pairs given a seed by their players' ratings.")
