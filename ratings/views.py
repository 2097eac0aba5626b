"""Public rating pages: the rating list (and its CSV); the organiser's seeding button.

A player's page (rating and statistics) is the statistics app's
(``stats.views_player``), under the same cache key.

Only people who consented to publish are named. Pages are cached under a key
that changes with every rating update, every change to a person (a rename,
consent, a merge, an anonymisation: ``ratings.page_version``) and every change
of an event's data (a player page lists the games).
"""

from __future__ import annotations

import csv
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import ApplicationError, PermissionDenied
from core.public_cache import cached_page
from people.models import Person
from printing.charts import svg_data_uri
from ratings.page_version import public_ratings_version
from ratings.pictures import rating_curves_svg
from ratings.selectors import (
    pair_rating_list,
    rating_list,
)
from ratings.services import ratings_seed_event
from signup.exports import spreadsheet_safe
from tournament.models import Tournament

CURVES_ON_LIST = 5


def ratings_cached(
    request: HttpRequest, page: str, render_page: Callable[[], HttpResponse]
) -> HttpResponse:
    return cached_page(request, f"ratings:{public_ratings_version()}:{page}", render_page)


def rating_curves_chart(people: list[Person]) -> str:
    return svg_data_uri(rating_curves_svg(people))


def rating_list_page(request: HttpRequest) -> HttpResponse:
    def render_page() -> HttpResponse:
        ratings = list(rating_list())
        top = [r.person for r in ratings[:CURVES_ON_LIST]]
        return render(
            request,
            "ratings/list.html",
            {
                "ratings": ratings,
                "pairs": list(pair_rating_list()[:20]),
                "curves_chart": rating_curves_chart(top) if top else "",
            },
        )

    return ratings_cached(request, "list", render_page)


def rating_list_csv(request: HttpRequest) -> HttpResponse:
    """The public rating list as CSV (semicolons, for Excel in Danish)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response["Content-Disposition"] = f'attachment; filename="ratings-{stamp}.csv"'
    response.write("\ufeff")
    write_ratings_csv(response)
    return response


def write_ratings_csv(out: object) -> None:
    writer = csv.writer(out, delimiter=";")  # type: ignore[arg-type]
    writer.writerow(["rank", "player", "club", "rating", "mu", "sigma", "games", "wins"])
    for rank, r in enumerate(rating_list(), start=1):
        writer.writerow(
            [rank, spreadsheet_safe(r.person.name), spreadsheet_safe(r.person.club),
             f"{r.ordinal:.2f}", f"{r.mu:.3f}", f"{r.sigma:.3f}", r.games, r.wins]
        )  # fmt: skip


@require_POST
def organiser_seed(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's button: seed the pairs by their players' ratings, then back to the pairs."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tournament:organiser_pairs", args=[slug]))
    tournament = get_object_or_404(Tournament, slug=slug)
    try:
        seeded = ratings_seed_event(tournament=tournament, actor=request.user)
    except PermissionDenied:
        raise  # the refusal page (403), nothing changed
    except ApplicationError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("%(n)d pairs were seeded by their players' ratings.") % {"n": seeded}
        )
    return redirect("tournament:organiser_pairs", slug=tournament.slug)
