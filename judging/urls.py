from django.urls import path

from judging import views

app_name = "judging"
urlpatterns: list = [
    path("tournaments/<slug:slug>/judge/", views.judge_dashboard_page, name="dashboard"),
]
