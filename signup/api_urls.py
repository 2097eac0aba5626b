"""REST routes of the signup app (mounted under /api/)."""

from django.urls import path

from signup import api, api_consent

urlpatterns = [
    path("tournaments/<slug:slug>/signup/", api.SignUpPublicView.as_view(), name="signup-public"),
    path("tournaments/<slug:slug>/signups/", api.SignUpListView.as_view(), name="signup-list"),
    path(
        "tournaments/<slug:slug>/signups/advance/",
        api.SignUpAdvanceView.as_view(),
        name="signup-advance",
    ),
    path(
        "signups/<int:signup_id>/approve/", api.SignUpApproveView.as_view(), name="signup-approve"
    ),
    path("signups/<int:signup_id>/reject/", api.SignUpRejectView.as_view(), name="signup-reject"),
    path(
        "signups/<int:signup_id>/withdraw/",
        api.SignUpOrganiserWithdrawView.as_view(),
        name="signup-withdraw",
    ),
    path("signups/<int:signup_id>/link/", api.SignUpLinkView.as_view(), name="signup-link"),
    path("signup/<str:signup_token>/", api.SignUpOwnView.as_view(), name="signup-own"),
    path(
        "signup/<str:signup_token>/withdraw/",
        api.SignUpWithdrawView.as_view(),
        name="signup-own-withdraw",
    ),
    path(
        "signup/<str:consent_token>/consent/",
        api_consent.ConsentLinkView.as_view(),
        name="signup-consent",
    ),
    path(
        "signup/<str:signup_token>/consent-withdraw/",
        api_consent.SignUpConsentWithdrawView.as_view(),
        name="signup-own-consent-withdraw",
    ),
    path(
        "signup/<str:signup_token>/consent-request/",
        api_consent.SignUpConsentRequestView.as_view(),
        name="signup-own-consent-request",
    ),
    path(
        "people/<int:person_id>/consent/",
        api_consent.PersonConsentView.as_view(),
        name="person-consent",
    ),
]
