from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("ratings/", views.rating_list_page, name="list"),
    path("ratings.csv", views.rating_list_csv, name="list_csv"),
    path("players/<int:player_id>/", views.player_page, name="player"),
    path("players/<int:player_id>/statistics.pdf", views.player_pdf, name="player_pdf"),
    path("organise/<slug:slug>/seed-by-rating/", views.organiser_seed, name="organiser_seed"),
]
