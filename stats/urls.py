from django.urls import path

from stats import views, views_player

app_name = "stats"

urlpatterns = [
    path("players/<int:player_id>/", views_player.player_page, name="player"),
    path("players/<int:player_id>/statistics.pdf", views_player.player_pdf, name="player_pdf"),
    path("statistics/", views.stats_index, name="index"),
    path("tournaments/<slug:slug>/statistics/", views.tournament_stats, name="tournament"),
    path(
        "tournaments/<slug:slug>/statistics.csv", views.tournament_stats_csv, name="tournament_csv"
    ),
    path(
        "tournaments/<slug:slug>/statistics.pdf", views.tournament_stats_pdf, name="tournament_pdf"
    ),
    path(
        "tournaments/<slug:slug>/statistics/games/<int:game_id>/",
        views.game_stats_page,
        name="game",
    ),
    path("seasons/<slug:season>/statistics/", views.season_stats, name="season"),
    path("seasons/<slug:season>/statistics.pdf", views.season_stats_pdf, name="season_pdf"),
]
