from django.urls import path

from judging import views

app_name = "judging"
urlpatterns: list = [
    path("tournaments/<slug:slug>/judge/", views.judge_dashboard_page, name="dashboard"),
    path(
        "tournaments/<slug:slug>/judge/games/<int:game_id>/",
        views.game_review_page,
        name="review",
    ),
    path(
        "tournaments/<slug:slug>/judge/games/<int:game_id>/rule/",
        views.game_rule,
        name="rule",
    ),
    path("tournaments/<slug:slug>/judge/rulings/", views.rulings_page, name="rulings"),
    path("tournaments/<slug:slug>/judge/incidents/", views.incidents_page, name="incidents"),
]
