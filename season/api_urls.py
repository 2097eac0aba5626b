"""REST routes of the season app (mounted under /api/)."""

from django.urls import path

from season import api

urlpatterns = [
    path("people/matches/", api.PersonMatchesView.as_view(), name="person-matches"),
    path(
        "people/matches/<int:match_id>/confirm/",
        api.PersonMatchConfirmView.as_view(),
        name="person-match-confirm",
    ),
    path(
        "people/matches/<int:match_id>/dismiss/",
        api.PersonMatchDismissView.as_view(),
        name="person-match-dismiss",
    ),
    path(
        "people/matches/<int:match_id>/undo/",
        api.PersonMatchUndoView.as_view(),
        name="person-match-undo",
    ),
    path("seasons/", api.SeasonListView.as_view(), name="season-list"),
    path("seasons/<slug:season>/", api.SeasonDetailView.as_view(), name="season-detail"),
    path("seasons/<slug:season>/ranking/", api.SeasonRankingView.as_view(), name="season-ranking"),
    path(
        "seasons/<slug:season>/ranking/csv/",
        api.SeasonRankingCsvView.as_view(),
        name="season-ranking-csv",
    ),
    path("seasons/<slug:season>/events/", api.SeasonEventsView.as_view(), name="season-events"),
    path(
        "seasons/<slug:season>/events/<int:event_id>/remove/",
        api.SeasonEventRemoveView.as_view(),
        name="season-event-remove",
    ),
    path("seasons/<slug:season>/final/", api.SeasonFinalView.as_view(), name="season-final"),
    path("seasons/<slug:season>/people/", api.SeasonPeopleView.as_view(), name="season-people"),
    path(
        "seasons/<slug:season>/people/merge/",
        api.SeasonMergeView.as_view(),
        name="season-people-merge",
    ),
    path(
        "seasons/<slug:season>/people/apart/",
        api.SeasonPersonsApartView.as_view(),
        name="season-people-apart",
    ),
    path(
        "seasons/<slug:season>/people/merges/<int:merge_id>/undo/",
        api.SeasonMergeUndoView.as_view(),
        name="season-merge-undo",
    ),
    path(
        "seasons/<slug:season>/people/<int:person_id>/anonymise/",
        api.SeasonPersonAnonymiseView.as_view(),
        name="season-person-anonymise",
    ),
]
