"""The front page: published tournaments."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.models import Tournament


def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.filter(published=True)
    return render(request, "tournament/home.html", {"tournaments": tournaments})
