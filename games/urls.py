from django.urls import path

from games import views, views_replay

app_name = "games"
urlpatterns = [
    path("t/", views.table_code, name="table-code"),
    path("t/sw.js", views.table_worker, name="table-worker"),
    path("t/<str:token>/", views.table_page, name="table"),
    path(
        "tournaments/<slug:slug>/rounds/<int:round_number>/tables/<int:table_number>/",
        views.live_table,
        name="live",
    ),
    path(
        "tournaments/<slug:slug>/rounds/<int:round_number>/tables/<int:table_number>/replay/",
        views_replay.game_replay_page,
        name="replay",
    ),
    path(
        "tournaments/<slug:slug>/rounds/<int:round_number>/tables/<int:table_number>/replay/record.json",
        views_replay.game_replay_record,
        name="replay-record",
    ),
    path("tournaments/<slug:slug>/hall/", views.hall, name="hall"),
]
