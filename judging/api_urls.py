from django.urls import path

from judging import api

urlpatterns: list = [
    path(
        "tournaments/<slug:slug>/judge/dashboard/",
        api.JudgeDashboardView.as_view(),
        name="judge-dashboard",
    ),
    path(
        "alerts/<int:alert_id>/acknowledge/",
        api.AlertAcknowledgeView.as_view(),
        name="alert-acknowledge",
    ),
    path(
        "tournaments/<slug:slug>/judge/alerts/acknowledge/",
        api.AlertsAcknowledgeView.as_view(),
        name="alerts-acknowledge",
    ),
    # Judge calls, review and rulings
    path("table/<str:token>/judge/", api.TableJudgeView.as_view(), name="table-judge"),
    path("tournaments/<slug:slug>/judge/calls/", api.CallsView.as_view(), name="judge-calls"),
    path("judging/calls/<int:call_id>/take/", api.CallTakeView.as_view(), name="call-take"),
    path("judging/calls/<int:call_id>/close/", api.CallCloseView.as_view(), name="call-close"),
    path("judging/games/<int:game_id>/review/", api.GameReviewView.as_view(), name="game-review"),
    path(
        "judging/games/<int:game_id>/rulings/", api.GameRulingsView.as_view(), name="game-rulings"
    ),
    path("judging/rulings/<int:ruling_id>/undo/", api.RulingUndoView.as_view(), name="ruling-undo"),
    path("judging/games/<int:game_id>/void-check/", api.VoidCheckView.as_view(), name="void-check"),
    path(
        "judging/games/<int:game_id>/adjudication/",
        api.AdjudicationView.as_view(),
        name="game-adjudication",
    ),
    path(
        "tournaments/<slug:slug>/judge/rulings/",
        api.RulingsSearchView.as_view(),
        name="rulings-search",
    ),
    path(
        "tournaments/<slug:slug>/judge/incidents/",
        api.IncidentsView.as_view(),
        name="judge-incidents",
    ),
]
