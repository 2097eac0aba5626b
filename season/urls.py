from django.urls import path

from season.views import organiser, people_matches, public

app_name = "season"

urlpatterns = [
    # Public pages
    path("seasons/", public.season_list, name="list"),
    path("seasons/<slug:season>/", public.season_overview, name="overview"),
    path("seasons/<slug:season>/ranking/", public.season_ranking, name="ranking"),
    path("seasons/<slug:season>/ranking.csv", public.season_ranking_csv, name="ranking_csv"),
    # Organiser pages
    path("organise/people/matches/", people_matches.person_matches, name="person_matches"),
    path(
        "organise/people/matches/<int:match_id>/confirm/",
        people_matches.person_match_confirm,
        name="person_match_confirm",
    ),
    path(
        "organise/people/matches/<int:match_id>/dismiss/",
        people_matches.person_match_dismiss,
        name="person_match_dismiss",
    ),
    path(
        "organise/people/matches/<int:match_id>/undo/",
        people_matches.person_match_undo,
        name="person_match_undo",
    ),
    path("organise/seasons/", organiser.organiser_index, name="organiser_index"),
    path("organise/seasons/new/", organiser.organiser_new, name="organiser_new"),
    path(
        "organise/seasons/<slug:season>/",
        organiser.organiser_dashboard,
        name="organiser_dashboard",
    ),
    path(
        "organise/seasons/<slug:season>/settings/",
        organiser.organiser_settings,
        name="organiser_settings",
    ),
    path(
        "organise/seasons/<slug:season>/events/add/",
        organiser.organiser_event_add,
        name="organiser_event_add",
    ),
    path(
        "organise/seasons/<slug:season>/events/<int:event_id>/remove/",
        organiser.organiser_event_remove,
        name="organiser_event_remove",
    ),
    path(
        "organise/seasons/<slug:season>/final/", organiser.organiser_final, name="organiser_final"
    ),
    path(
        "organise/seasons/<slug:season>/people/",
        organiser.organiser_people,
        name="organiser_people",
    ),
    path(
        "organise/seasons/<slug:season>/people/merge/",
        organiser.organiser_merge,
        name="organiser_merge",
    ),
    path(
        "organise/seasons/<slug:season>/people/apart/",
        organiser.organiser_apart,
        name="organiser_apart",
    ),
    path(
        "organise/seasons/<slug:season>/people/merges/<int:merge_id>/undo/",
        organiser.organiser_merge_undo,
        name="organiser_merge_undo",
    ),
    path(
        "organise/seasons/<slug:season>/people/<int:person_id>/anonymise/",
        organiser.organiser_anonymise,
        name="organiser_anonymise",
    ),
]
