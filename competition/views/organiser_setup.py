"""Organiser pages: my tournaments, create, dashboard, settings, staff."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts.forms import InvitationCreateForm
from accounts.selectors import invitations_pending
from competition import selectors
from competition.forms import (
    KnockoutCreateForm,
    PublishForm,
    RoleGrantForm,
    RoundPairForm,
    TournamentForm,
)
from competition.selectors_handover import handover_panel
from competition.views.organiser_handover import HandOverFileForm
from competition.views.organiser_rounds import knockout_cut_context
from core.errors import ApplicationError
from judging.selectors import round_attention
from tournament.models import Pair, Round, Tournament, TournamentRole
from tournament.selectors_events import events_for_user
from tournament.services.registration import (
    tournament_create,
    tournament_publish,
    tournament_role_grant,
    tournament_role_revoke,
    tournament_update,
)
from tournament.views.common import call_service, form_error, organiser_post, organiser_required


@login_required
def organiser_index(request: HttpRequest) -> HttpResponse:
    """My events: the ones I organise and the ones I judge, and a new one."""
    events = events_for_user(user=request.user)
    return render(
        request,
        "tournament/organiser/index.html",
        {"events": events, "handover_form": HandOverFileForm()},
    )


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None, creating=True)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create(
                actor=request.user,
                slug=form.cleaned_data.get("slug") or None,
                **form.settings(),
            )
        except ApplicationError as error:
            form_error(form, error)
        else:
            messages.success(request, _("The tournament was created."))
            return redirect("tournament:organiser_dashboard", slug=tournament.slug)
    return render(
        request, "tournament/organiser/tournament_form.html", {"form": form, "creating": True}
    )


@organiser_required
def tournament_settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            tournament_update(tournament=tournament, actor=request.user, **form.settings())
        except ApplicationError as error:
            tournament.refresh_from_db()
            form_error(form, error)
        else:
            messages.success(request, _("The settings were saved."))
            return redirect("tournament:organiser_dashboard", slug=tournament.slug)
    return render(
        request,
        "tournament/organiser/tournament_form.html",
        {"form": form, "tournament": tournament, "creating": False},
    )


@organiser_required
def dashboard(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rounds = list(tournament.rounds.order_by("number"))
    swiss_played = sum(1 for r in rounds if r.kind == Round.Kind.SWISS)
    counts = {
        status: tournament.pairs.filter(status=status).count() for status in Pair.Status.values
    }
    roles = TournamentRole.objects.filter(tournament=tournament).select_related("user")
    current = selectors.current_round(tournament=tournament, include_drafts=True)
    return render(
        request,
        "tournament/organiser/dashboard.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "current": current,
            "overview": selectors.round_overview(round=current) if current else None,
            "attention": round_attention(round=current) if current else None,
            "counts": counts,
            "pair_form": RoundPairForm(),
            "first_round": not rounds,
            "swiss_left": max(tournament.swiss_rounds - swiss_played, 0),
            "knockout_form": KnockoutCreateForm(),
            "has_knockout": any(r.kind == Round.Kind.KNOCKOUT for r in rounds),
            **knockout_cut_context(tournament),
            "roles": roles,
            "role_form": RoleGrantForm(),
            "invitations": invitations_pending(tournament=tournament),
            "invitation_form": InvitationCreateForm(),
            "handover": handover_panel(tournament=tournament),
            "handover_form": HandOverFileForm(),
        },
    )


@organiser_post
def publish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The publish step: the event's pages open to everyone, or close again."""
    form = PublishForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, _("Choose to publish the event or to take it off the public pages.")
        )
        return redirect("tournament:organiser_dashboard", slug=tournament.slug)
    published = form.cleaned_data["action"] == "publish"
    call_service(
        request,
        lambda: tournament_publish(tournament=tournament, actor=request.user, published=published),
        _("The event is public: everyone can see its pages.")
        if published
        else _("The event is no longer public: only its organisers and judges see it."),
    )
    return redirect("tournament:organiser_dashboard", slug=tournament.slug)


@organiser_post
def role_grant(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = RoleGrantForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Fill in a username and a role."))
        return redirect("tournament:organiser_dashboard", slug=tournament.slug)
    user = get_user_model().objects.filter(username=form.cleaned_data["username"]).first()
    if user is None:
        messages.error(request, _("There is no user with that username."))
    else:
        call_service(
            request,
            lambda: tournament_role_grant(
                tournament=tournament,
                actor=request.user,
                user=user,
                role=TournamentRole.Role(form.cleaned_data["role"]),
            ),
            _("The role was given."),
        )
    return redirect("tournament:organiser_dashboard", slug=tournament.slug)


@organiser_post
def role_revoke(request: HttpRequest, tournament: Tournament, role_id: int) -> HttpResponse:
    role = TournamentRole.objects.filter(tournament=tournament, pk=role_id).first()
    if role is None:
        messages.error(request, _("That role no longer exists."))
    else:
        call_service(
            request,
            lambda: tournament_role_revoke(
                tournament=tournament,
                actor=request.user,
                user=role.user,
                role=TournamentRole.Role(role.role),
            ),
            _("The role was removed."),
        )
    return redirect("tournament:organiser_dashboard", slug=tournament.slug)
