"""Account pages: first-run setup, invitations, my account, passwords, deactivation.

Thin: a form checks the input, one service writes, a refusal becomes a
message in the active language. Django's own views do the password change
and reset, with the site's templates and a limit on reset requests.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts import selectors
from accounts.forms import InvitationCreateForm, NewAccountForm, PasswordConfirmForm, SetupForm
from accounts.models import Invitation
from accounts.services import (
    invitation_accept,
    invitation_create,
    invitation_revoke,
    invitation_signup,
    setup_complete,
    user_deactivate,
    user_reactivate,
)
from accounts.services.invitations import invitation_refusal
from accounts.throttle import password_reset_allow, setup_attempt_allow
from core.errors import ApplicationError, PermissionDenied
from core.users import AuthenticatedHttpRequest
from tournament.models import Tournament, TournamentRole
from tournament.views.common import call_service, forbidden, organiser_post

BACKEND = "django.contrib.auth.backends.ModelBackend"


# --- first-run setup ---------------------------------------------------------------


@never_cache
def setup(request: HttpRequest) -> HttpResponse:
    """The first account of a server with none; gone once any account exists."""
    if not selectors.setup_open():
        raise Http404
    form = SetupForm(request.POST or None)
    status = 200
    if request.method == "POST":
        try:
            setup_attempt_allow(request=request)
            if form.is_valid():
                user = setup_complete(
                    code=form.cleaned_data["code"],
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                    email=form.cleaned_data.get("email") or "",
                )
                login(request, user, backend=BACKEND)
                messages.success(
                    request,
                    _("Your account is made. You are the federation's administrator."),
                )
                return redirect("accounts:home")
        except ApplicationError as error:
            form.add_error(None, error.message)
            status = error.status_code
        else:
            status = 400
    return render(request, "accounts/setup.html", {"form": form}, status=status)


# --- invitations -------------------------------------------------------------------


@organiser_post
def invitation_new(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = InvitationCreateForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a role, and give a valid email address or none."))
        return redirect("tournament:organiser_dashboard", slug=tournament.slug)
    try:
        sent = invitation_create(
            tournament=tournament,
            actor=request.user,
            role=TournamentRole.Role(form.cleaned_data["role"]),
            email=form.cleaned_data.get("email") or "",
        )
    except ApplicationError as error:
        return forbidden(request, error)
    # The link is shown on this answer only (never stored in a message or the session).
    response = render(
        request,
        "accounts/invitation_created.html",
        {"tournament": tournament, "sent": sent, "invitation": sent.invitation},
    )
    response["Cache-Control"] = "no-store"
    return response


@organiser_post
def invitation_withdraw(
    request: HttpRequest, tournament: Tournament, invitation_id: int
) -> HttpResponse:
    invitation = Invitation.objects.filter(tournament=tournament, pk=invitation_id).first()
    if invitation is None:
        messages.error(request, _("That invitation no longer exists."))
    else:
        call_service(
            request,
            lambda: invitation_revoke(invitation=invitation, actor=request.user),
            _("The invitation was withdrawn: its link no longer works."),
        )
    return redirect("tournament:organiser_dashboard", slug=tournament.slug)


@never_cache
def invitation(request: HttpRequest, invitation_token: str) -> HttpResponse:
    """The invitee's page: make an account (or, signed in, accept) and get the role."""
    token = invitation_token
    found = selectors.invitation_for_token(token=token)
    if found is None or found.state != Invitation.State.PENDING:
        return _invitation_refused(request, found)
    signed_in = request.user.is_authenticated
    form = None if signed_in else NewAccountForm(request.POST or None)
    status = 200
    if request.method == "POST":
        try:
            if signed_in:
                invitation_accept(token=token, actor=request.user)
            elif form is not None and form.is_valid():
                user = invitation_signup(
                    token=token,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                    email=form.cleaned_data.get("email") or "",
                )
                login(request, user, backend=BACKEND)
            else:
                status = 400
        except ApplicationError as error:
            return _invitation_refused(request, found, error)
        if status == 200:
            messages.success(
                request,
                _("Welcome: you are now %(role)s of %(event)s.")
                % {"role": found.get_role_display().lower(), "event": found.tournament.name},
            )
            return redirect("tournament:role_home")
    return render(
        request,
        "accounts/invitation.html",
        {"invitation": found, "form": form, "event": found.tournament},
        status=status,
    )


def _invitation_refused(
    request: HttpRequest, found: Invitation | None, error: ApplicationError | None = None
) -> HttpResponse:
    error = error or invitation_refusal(found)
    return render(request, "signup/link_invalid.html", {"error": error}, status=error.status_code)


# --- my account --------------------------------------------------------------------


@login_required
def account_home(request: AuthenticatedHttpRequest) -> HttpResponse:
    roles = (
        TournamentRole.objects.filter(user=request.user)
        .select_related("tournament")
        .order_by("-tournament__date")
    )
    return render(
        request,
        "accounts/home.html",
        {"roles": roles, "deactivate_form": PasswordConfirmForm(user=request.user)},
    )


@login_required
@require_POST
def account_deactivate(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The user closes their own account (their password confirms it)."""
    form = PasswordConfirmForm(request.POST, user=request.user)
    if not form.is_valid():
        messages.error(request, _("That is not your password: the account stays open."))
        return redirect("accounts:home")
    try:
        user_deactivate(actor=request.user, user=request.user)
    except ApplicationError as error:
        messages.error(request, error.message)
        return redirect("accounts:home")
    logout(request)
    messages.success(request, _("Your account is deactivated. Ask the staff to reopen it."))
    return redirect("tournament:home")


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:home")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(self.request, _("Your password is changed."))
        return response


# --- password reset by email -------------------------------------------------------


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset by email, counted per client and per address (accounts/throttle.py)."""

    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/email/password_reset_body.txt"
    subject_template_name = "accounts/email/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_sent")

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        try:
            password_reset_allow(request=self.request, email=form.cleaned_data["email"])
        except ApplicationError as error:
            form.add_error(None, error.message)
            response = self.form_invalid(form)
            response.status_code = error.status_code
            return response
        # Links carry the site's public address, not the address this request came in on.
        self.extra_email_context = {"site_url": settings.SITE_URL}
        return super().form_valid(form)


class PasswordResetSentView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_sent.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's view, under a URL whose secret is named ``reset_token`` (never a table's)."""

    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")

    def dispatch(self, *args: Any, **kwargs: Any) -> HttpResponseBase:
        kwargs["token"] = kwargs.pop("reset_token")
        return super().dispatch(*args, **kwargs)


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"


# --- staff: every account ----------------------------------------------------------


def _staff_only(request: HttpRequest) -> HttpResponse | None:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not (request.user.is_staff and request.user.is_active):
        refusal = PermissionDenied(gettext_lazy("Only the federation's staff may open this page."))
        return forbidden(request, refusal)
    return None


def staff_accounts(request: HttpRequest) -> HttpResponse:
    refused = _staff_only(request)
    if refused is not None:
        return refused
    accounts = selectors.accounts_for_staff()
    return render(request, "accounts/staff_accounts.html", {"accounts": accounts})


@require_POST
def staff_account_action(request: HttpRequest, user_id: int, action: str) -> HttpResponse:
    refused = _staff_only(request)
    if refused is not None:
        return refused
    if action not in ("deactivate", "reactivate"):
        raise Http404
    user = get_object_or_404(User, pk=user_id)
    if action == "deactivate":
        call_service(
            request,
            lambda: user_deactivate(actor=request.user, user=user),
            _("The account is deactivated."),
        )
    else:
        call_service(
            request,
            lambda: user_reactivate(actor=request.user, user=user),
            _("The account is open again."),
        )
    return redirect("accounts:staff_accounts")
