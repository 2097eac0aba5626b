from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("ratings/", views.rating_list_page, name="list"),
    path("ratings.csv", views.rating_list_csv, name="list_csv"),
    path("organise/<slug:slug>/seed-by-rating/", views.organiser_seed, name="organiser_seed"),
]
