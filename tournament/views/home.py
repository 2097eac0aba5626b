"""The front page (published tournaments) and each signed-in user's start."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from tournament.models import Tournament
from tournament.selectors_events import home_for_user


def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.filter(published=True)
    return render(request, "tournament/home.html", {"tournaments": tournaments})


@login_required
def role_home(request: HttpRequest) -> HttpResponse:
    """After login: an organiser's event dashboard, a judge's judge dashboard,
    or the list of their events when they have several."""
    target = home_for_user(user=request.user, today=timezone.localdate())
    if target is None:
        return redirect("tournament:organiser_index")
    role, tournament = target
    if role == "judge":
        return redirect("judging:dashboard", slug=tournament.slug)
    return redirect("tournament:organiser_dashboard", slug=tournament.slug)
