from django.urls import path

from signup import views, views_consent

app_name = "signup"

urlpatterns = [
    path("tournaments/<slug:slug>/signup/", views.signup_page, name="page"),
    path("signup/<str:signup_token>/", views.signup_own, name="own"),
    path("signup/<str:consent_token>/consent/", views_consent.signup_consent, name="consent"),
    path(
        "organise/people/<int:person_id>/consent/",
        views_consent.organiser_person_consent,
        name="organiser_person_consent",
    ),
    path("organise/<slug:slug>/signups/", views.organiser_signups, name="organiser_list"),
    path("organise/<slug:slug>/signups.csv", views.organiser_signups_csv, name="organiser_csv"),
    path(
        "organise/<slug:slug>/signups/advance/",
        views.organiser_advance,
        name="organiser_advance",
    ),
    path(
        "organise/<slug:slug>/signups/<int:signup_id>/approve/",
        views.organiser_approve,
        name="organiser_approve",
    ),
    path(
        "organise/<slug:slug>/signups/<int:signup_id>/reject/",
        views.organiser_reject,
        name="organiser_reject",
    ),
    path(
        "organise/<slug:slug>/signups/<int:signup_id>/withdraw/",
        views.organiser_withdraw,
        name="organiser_withdraw",
    ),
    path(
        "organise/<slug:slug>/signups/<int:signup_id>/link/",
        views.organiser_link,
        name="organiser_link",
    ),
]
