"""REST routes of the ratings app (mounted under /api/)."""

from django.urls import path

from ratings import api

urlpatterns = [
    path("ratings/", api.RatingListView.as_view(), name="ratings-list"),
    path("ratings/csv/", api.RatingCsvView.as_view(), name="ratings-csv"),
    path(
        "tournaments/<slug:slug>/seed-by-rating/",
        api.SeedByRatingView.as_view(),
        name="tournament-seed-by-rating",
    ),
]
