from django.urls import path

from tournament import views

app_name = "tournament"
urlpatterns = [
    path("", views.home, name="home"),
]
