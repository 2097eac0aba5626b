"""Account pages, under the ``accounts`` namespace."""

from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("setup/", views.setup, name="setup"),
    # The path part after invite/ is the link's secret: masked in every log line.
    path("invite/<str:invitation_token>/", views.invitation, name="invitation"),
    path(
        "organise/<slug:slug>/invitations/", views.invitation_new, name="organiser_invitation_new"
    ),
    path(
        "organise/<slug:slug>/invitations/<int:invitation_id>/withdraw/",
        views.invitation_withdraw,
        name="organiser_invitation_withdraw",
    ),
    path("account/", views.account_home, name="home"),
    path("account/password/", views.PasswordChangeView.as_view(), name="password_change"),
    path("account/deactivate/", views.account_deactivate, name="deactivate"),
    path("account/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("account/reset/sent/", views.PasswordResetSentView.as_view(), name="password_reset_sent"),
    path(
        "account/reset/done/",
        views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    # The token after the user's id is the reset link's secret: masked in every log line.
    # Django's view moves it into the session and redirects to .../set-password/.
    path(
        "account/reset/<uidb64>/<reset_token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("staff/accounts/", views.staff_accounts, name="staff_accounts"),
    path(
        "staff/accounts/<int:user_id>/<slug:action>/",
        views.staff_account_action,
        name="staff_account_action",
    ),
]
