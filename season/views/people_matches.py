"""Suggested matches: a registration, import or sign-up found a known person
by name and club that the event's organisers may not link to. Whoever may
manage both people confirms (merge) or dismisses them here; an organiser sees
the suggestions about people of their own events.

Thin: the services decide who may (``tournament.person_permissions``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core.errors import ApplicationError, PermissionDenied
from core.users import AuthenticatedHttpRequest
from people.models import PersonMatch
from season.selectors import person_matches_for
from season.services import people as people_service


@login_required
@never_cache
def person_matches(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(
        request,
        "season/organiser/matches.html",
        {"matches": person_matches_for(actor=request.user)},
    )


def _decide(
    request: AuthenticatedHttpRequest,
    match_id: int,
    call: Callable[..., Any],
    success: str,
) -> HttpResponse:
    match = get_object_or_404(PersonMatch.objects.select_related("new", "known"), pk=match_id)
    try:
        call(match=match, actor=request.user)
    except PermissionDenied as error:
        return render(request, "tournament/forbidden.html", {"error": error}, status=403)
    except ApplicationError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, success)
    return redirect("season:person_matches")


@login_required
@require_POST
def person_match_confirm(request: AuthenticatedHttpRequest, match_id: int) -> HttpResponse:
    return _decide(
        request, match_id, people_service.person_match_confirm, _("They are now one person.")
    )


@login_required
@require_POST
def person_match_dismiss(request: AuthenticatedHttpRequest, match_id: int) -> HttpResponse:
    return _decide(
        request,
        match_id,
        people_service.person_match_dismiss,
        _("Kept apart: they will not be suggested again."),
    )


@login_required
@require_POST
def person_match_undo(request: AuthenticatedHttpRequest, match_id: int) -> HttpResponse:
    return _decide(request, match_id, people_service.person_match_undo, _("The merge is undone."))
