"""Sign-up pages: the public form, a pair's private page, the organiser's list.

Thin: parse the form, call one service, show its refusal as a message in the
active language. Services are atomic, so a refused call changed nothing.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core.errors import ApplicationError, PermissionDenied
from signup import views_consent
from signup.exports import write_signups_csv
from signup.forms import OwnPageForm, RejectForm, SignUpForm
from signup.models import SignUp
from signup.selectors import signup_state, signups_for_organiser, waitlist_position
from signup.selectors_consent import consent_coverage
from signup.services import signups as service
from signup.services.links import signup_from_token, signup_token
from signup.spam import signup_attempt_allow
from tournament.models import Tournament
from tournament.permissions import is_organiser, visible_tournament_or_404


@never_cache
def signup_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = visible_tournament_or_404(request.user, slug)
    form = SignUpForm(request.POST or None, singles=tournament.is_singles)
    status = 200
    if request.method == "POST":
        try:
            signup_attempt_allow(request=request)
            if form.is_valid():
                signup = service.signup_submit(tournament=tournament, **form.submission())
                messages.success(request, _("Thank you! Your sign-up is registered."))
                return redirect("signup:own", signup_token=signup_token(signup=signup))
        except ApplicationError as error:
            # Next to the field it is about, when the form shows that field.
            field = error.extra.get("field")
            form.add_error(field if field in form.fields else None, error.message)
            status = error.status_code
        else:
            status = 400
    return render(
        request,
        "signup/signup.html",
        {"tournament": tournament, "state": signup_state(tournament=tournament), "form": form},
        status=status,
    )


@never_cache
def signup_own(request: HttpRequest, signup_token: str) -> HttpResponse:
    """A pair's own page, opened from its private link: status, and withdraw."""
    try:
        signup = signup_from_token(token=signup_token)
    except ApplicationError as error:
        return render(request, "signup/link_invalid.html", {"error": error}, status=404)
    if request.method == "POST":
        action = OwnPageForm(request.POST).chosen_action()
        if action:
            return views_consent.signup_own_consent(request, signup_token, action)
        try:
            service.signup_withdraw_by_link(token=signup_token)
        except ApplicationError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Your withdrawal is registered."))
        return redirect("signup:own", signup_token=signup_token)
    return render(
        request,
        "signup/own.html",
        {
            "signup": signup,
            "tournament": signup.tournament,
            "position": waitlist_position(signup=signup),
            "state": signup_state(tournament=signup.tournament),
            "coverage": consent_coverage(signup=signup),
        },
    )


# --------------------------------------------------------------------------
# Organiser pages

ViewFunc = Callable[..., HttpResponse]


def _organiser_page(view: ViewFunc) -> ViewFunc:
    """Login, then organiser of *this* tournament (from ``slug``), else 403."""

    @wraps(view)
    @never_cache
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        tournament = get_object_or_404(Tournament, slug=slug)
        if not is_organiser(request.user, tournament):
            error = PermissionDenied(
                gettext_lazy("Only an organiser of this tournament may open this page."),
            )
            return render(request, "tournament/forbidden.html", {"error": error}, status=403)
        return view(request, tournament, *args, **kwargs)

    return wrapper


@_organiser_page
def organiser_signups(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "signup/organiser/signups.html",
        {
            "tournament": tournament,
            "state": signup_state(tournament=tournament),
            "signups": signups_for_organiser(tournament=tournament),
            "reject_form": RejectForm(),
        },
    )


@_organiser_page
def organiser_signups_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The sign-ups with contact emails, for the desk (semicolon CSV, opens in Excel)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response["Content-Disposition"] = (
        f'attachment; filename="{tournament.slug}-signups-{stamp}.csv"'
    )
    response["Cache-Control"] = "private, no-store"
    response.write("\ufeff")
    write_signups_csv(
        csv.writer(response, delimiter=";"), signups_for_organiser(tournament=tournament)
    )
    return response


def _signup_action(action: Callable[..., Any], success: Any, *, note: bool = False) -> ViewFunc:
    """An organiser's POST on one sign-up; ``note``: the form carries a note to the pair."""

    @require_POST
    def view(request: HttpRequest, tournament: Tournament, signup_id: int) -> HttpResponse:
        signup = get_object_or_404(SignUp, tournament=tournament, pk=signup_id)
        extra = {}
        if note:
            form = RejectForm(request.POST)
            extra["note"] = form.cleaned_data["note"] if form.is_valid() else ""
        try:
            action(signup=signup, actor=request.user, **extra)
        except ApplicationError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, str(success) % {"pair": signup.display_name})
        return redirect("signup:organiser_list", slug=tournament.slug)

    return _organiser_page(view)


organiser_approve = _signup_action(
    service.signup_approve, gettext_lazy("%(pair)s is approved: the pair is now in the tournament.")
)
organiser_reject = _signup_action(
    service.signup_reject, gettext_lazy("%(pair)s was turned down."), note=True
)
organiser_withdraw = _signup_action(service.signup_withdraw, gettext_lazy("%(pair)s is withdrawn."))
organiser_link = _signup_action(
    service.signup_link_renew, gettext_lazy("%(pair)s has been sent a new private link.")
)


@_organiser_page
@require_POST
def organiser_advance(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        moved = service.signup_waitlist_advance(tournament=tournament, actor=request.user)
    except ApplicationError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("%(n)d sign-ups moved up from the waitlist.") % {"n": len(moved)}
        )
    return redirect("signup:organiser_list", slug=tournament.slug)
