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
]
