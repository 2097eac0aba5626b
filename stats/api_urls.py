"""REST routes of the statistics app (mounted under /api/)."""

from django.urls import path

from stats import api

urlpatterns = [
    path("players/<int:player_id>/", api.PlayerView.as_view(), name="player-detail"),
    path(
        "tournaments/<slug:slug>/statistics/",
        api.TournamentStatsView.as_view(),
        name="tournament-statistics",
    ),
    path(
        "tournaments/<slug:slug>/statistics/csv/",
        api.TournamentStatsCsvView.as_view(),
        name="tournament-statistics-csv",
    ),
    path(
        "seasons/<slug:season>/statistics/", api.SeasonStatsView.as_view(), name="season-statistics"
    ),
]
