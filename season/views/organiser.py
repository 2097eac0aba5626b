"""Organiser pages of a season: rules, events, the final, the people.

Thin: parse a form, call one service, show its refusal in the active
language. Services are atomic, so a refused call changed nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core.errors import ApplicationError, PermissionDenied
from core.users import Actor, AuthenticatedHttpRequest
from people.models import Person, PersonAudit
from season.forms import ApartForm, EventAddForm, FinalForm, MergeForm, SeriesForm
from season.models import Series, SeriesEvent
from season.permissions import is_series_organiser
from season.selectors import series_overview, series_people
from season.services import final as final_service
from season.services import people as people_service
from season.services import series as series_service
from tournament.models import Tournament, TournamentRole

ViewFunc = Callable[..., HttpResponse]


def _organiser_page(view: ViewFunc) -> ViewFunc:
    """Login, then organiser of *this* season (from ``season``), else 403."""

    @wraps(view)
    @never_cache
    def wrapper(request: HttpRequest, season: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        series = get_object_or_404(Series, slug=season)
        if not is_series_organiser(request.user, series):
            error = PermissionDenied(
                gettext_lazy("Only an organiser of this season may open this page."),
            )
            return render(request, "tournament/forbidden.html", {"error": error}, status=403)
        return view(request, series, *args, **kwargs)

    return wrapper


def _done(request: HttpRequest, call: Callable[[], Any], success: str) -> bool:
    try:
        call()
    except ApplicationError as error:
        messages.error(request, error.message)
        return False
    messages.success(request, success)
    return True


def _organised_tournaments(user: Actor) -> QuerySet[Tournament]:
    tournaments = Tournament.objects.all()
    if not user.is_staff:
        tournaments = tournaments.filter(
            Q(roles__user=user, roles__role=TournamentRole.Role.ORGANISER)
        ).distinct()
    return tournaments.order_by("-date", "name")


@login_required
def organiser_index(request: AuthenticatedHttpRequest) -> HttpResponse:
    seasons = Series.objects.all()
    if not request.user.is_staff:
        seasons = seasons.filter(roles__user=request.user).distinct()
    return render(request, "season/organiser/index.html", {"seasons": seasons})


@login_required
def organiser_new(request: HttpRequest) -> HttpResponse:
    form = SeriesForm(request.POST or None, creating=True)
    if request.method == "POST" and form.is_valid():
        try:
            series = series_service.series_create(
                actor=request.user, slug=form.cleaned_data.get("slug") or None, **form.settings()
            )
        except ApplicationError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The season was created. Now add its qualifiers."))
            return redirect("season:organiser_dashboard", season=series.slug)
    return render(request, "season/organiser/form.html", {"form": form, "creating": True})


@_organiser_page
def organiser_settings(request: HttpRequest, series: Series) -> HttpResponse:
    form = SeriesForm(request.POST or None, instance=series)
    if request.method == "POST" and form.is_valid():
        try:
            series_service.series_update(series=series, actor=request.user, **form.settings())
        except ApplicationError as error:
            series.refresh_from_db()
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The settings were saved."))
            return redirect("season:organiser_dashboard", season=series.slug)
    return render(
        request, "season/organiser/form.html", {"form": form, "series": series, "creating": False}
    )


@_organiser_page
def organiser_dashboard(request: HttpRequest, series: Series) -> HttpResponse:
    overview = series_overview(series=series, public=False)
    in_season = {c.event.tournament_id for c in overview.calendar}
    candidates = _organised_tournaments(request.user).exclude(pk__in=in_season)
    return render(
        request,
        "season/organiser/dashboard.html",
        {
            "series": series,
            "overview": overview,
            "event_form": EventAddForm(tournaments=candidates),
            "has_candidates": candidates.exists(),
        },
    )


@_organiser_page
@require_POST
def organiser_event_add(request: HttpRequest, series: Series) -> HttpResponse:
    form = EventAddForm(request.POST, tournaments=_organised_tournaments(request.user))
    if not form.is_valid():
        messages.error(request, _("Choose one of your tournaments."))
    else:
        tournament = form.cleaned_data["tournament"]
        _done(
            request,
            lambda: series_service.series_event_add(
                series=series,
                actor=request.user,
                tournament=tournament,
                kind=form.cleaned_data["kind"],
            ),
            _("%(name)s is now part of the season.") % {"name": tournament.name},
        )
    return redirect("season:organiser_dashboard", season=series.slug)


@_organiser_page
@require_POST
def organiser_event_remove(request: HttpRequest, series: Series, event_id: int) -> HttpResponse:
    events = SeriesEvent.objects.select_related("tournament")
    event = get_object_or_404(events, pk=event_id, series=series)
    _done(
        request,
        lambda: series_service.series_event_remove(series=series, actor=request.user, event=event),
        _("%(name)s is no longer part of the season.") % {"name": event.tournament.name},
    )
    return redirect("season:organiser_dashboard", season=series.slug)


@_organiser_page
def organiser_final(request: HttpRequest, series: Series) -> HttpResponse:
    overview = series_overview(series=series, public=False)
    initial = {"name": _("%(season)s — final") % {"season": series.name}}
    form = FinalForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            created = final_service.series_final_create(
                series=series, actor=request.user, **form.cleaned_data
            )
        except ApplicationError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request,
                _("The final is created with %(n)d pairs, seeded by the qualification ranking.")
                % {"n": len(created.entered)},
            )
            left_out = _(
                "%(pair)s qualified, but one of its players already plays the final in a "
                "better-ranked pair: the pair was left out."
            )
            for row in created.left_out:
                messages.warning(request, left_out % {"pair": row.entry.display_name})
            return redirect("tournament:organiser_pairs", slug=created.tournament.slug)
    return render(
        request,
        "season/organiser/final.html",
        {"series": series, "overview": overview, "form": form},
    )


@_organiser_page
def organiser_people(request: HttpRequest, series: Series) -> HttpResponse:
    people = series_people(series=series, actor=request.user)
    manageable = {p.person.pk for p in people.people if p.may_manage}
    persons = Person.objects.filter(pk__in=manageable)
    return render(
        request,
        "season/organiser/people.html",
        {
            "series": series,
            "people": people,
            "manageable": manageable,
            "merge_form": MergeForm(persons=persons),
        },
    )


def _season_person(series: Series, person_id: Any) -> Person:
    return get_object_or_404(
        Person.objects.filter(players__tournament__season_events__series=series).distinct(),
        pk=person_id,
    )


@_organiser_page
@require_POST
def organiser_merge(request: HttpRequest, series: Series) -> HttpResponse:
    persons = Person.objects.filter(players__tournament__season_events__series=series).distinct()
    form = MergeForm(request.POST, persons=persons)
    if not form.is_valid():
        messages.error(request, _("Choose two different people of this season."))
    else:
        survivor, duplicate = form.cleaned_data["survivor"], form.cleaned_data["duplicate"]
        _done(
            request,
            lambda: people_service.season_persons_merge(
                series=series, actor=request.user, survivor=survivor, duplicate=duplicate
            ),
            _("%(duplicate)s and %(survivor)s are now one person.")
            % {"duplicate": duplicate.name, "survivor": survivor.name},
        )
    return redirect("season:organiser_people", season=series.slug)


@_organiser_page
@require_POST
def organiser_merge_undo(request: HttpRequest, series: Series, merge_id: int) -> HttpResponse:
    merge = get_object_or_404(PersonAudit, pk=merge_id, action=PersonAudit.Action.MERGE)
    _done(
        request,
        lambda: people_service.season_person_merge_undo(
            series=series, actor=request.user, merge=merge
        ),
        _("The merge is undone."),
    )
    return redirect("season:organiser_people", season=series.slug)


@_organiser_page
@require_POST
def organiser_anonymise(request: HttpRequest, series: Series, person_id: int) -> HttpResponse:
    person = _season_person(series, person_id)
    _done(
        request,
        lambda: people_service.season_person_anonymise(
            series=series, actor=request.user, person=person
        ),
        _("The person is anonymised everywhere."),
    )
    return redirect("season:organiser_people", season=series.slug)


@_organiser_page
@require_POST
def organiser_apart(request: HttpRequest, series: Series) -> HttpResponse:
    persons = Person.objects.filter(players__tournament__season_events__series=series).distinct()
    form = ApartForm(request.POST, persons=persons)
    if not form.is_valid():
        messages.error(request, _("Choose two different people of this season."))
    else:
        first, second = form.cleaned_data["first"], form.cleaned_data["second"]
        _done(
            request,
            lambda: people_service.season_persons_apart(
                series=series, actor=request.user, first=first, second=second
            ),
            _("Kept apart: they will not be suggested again."),
        )
    return redirect("season:organiser_people", season=series.slug)
