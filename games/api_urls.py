from django.urls import path

from games import api, api_clock

urlpatterns: list = [
    # Clock
    path("games/<int:game_id>/clock/", api_clock.ClockView.as_view(), name="game-clock"),
    path(
        "games/<int:game_id>/clock/pause/",
        api_clock.ClockPauseView.as_view(),
        name="game-clock-pause",
    ),
    path(
        "games/<int:game_id>/clock/resume/",
        api_clock.ClockResumeView.as_view(),
        name="game-clock-resume",
    ),
    path(
        "games/<int:game_id>/clock/extend/",
        api_clock.ClockExtendView.as_view(),
        name="game-clock-extend",
    ),
    # Move log
    path("table/<str:token>/state/", api.TableStateView.as_view(), name="table-state"),
    path("table/<str:token>/entries/", api.TableEntriesView.as_view(), name="table-entries"),
    path("table/<str:token>/preview/", api.TablePreviewView.as_view(), name="table-preview"),
    path("table/<str:token>/take-back/", api.TableTakeBackView.as_view(), name="table-take-back"),
    path("table/<str:token>/confirm/", api.TableConfirmView.as_view(), name="table-confirm"),
    path("table/<str:token>/record/", api.TableRecordView.as_view(), name="table-record"),
    path("table/<str:token>/clock/", api_clock.TableClockView.as_view(), name="table-clock"),
    path("games/<int:game_id>/state/", api.GameStateView.as_view(), name="game-state"),
    path("games/<int:game_id>/record/", api.GameRecordView.as_view(), name="game-record"),
    path("tournaments/<slug:slug>/hall/", api.HallView.as_view(), name="tournament-hall"),
]
