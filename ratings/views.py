"""Public rating pages: the rating list (and its CSV) and a player's page.

Only people who consented to publish are named; anyone else's page is a 404,
the same answer as for a person who does not exist. Pages are cached under
a key that changes with every rating update, every change to a person (a
rename, consent, a merge, an anonymisation: ``ratings.page_version``) and
every change of an event's data (a player page lists the games).
"""

from __future__ import annotations

import csv
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import ApplicationError, PermissionDenied
from people.models import Person
from ratings.page_version import public_ratings_version
from ratings.selectors import (
    pair_rating_list,
    person_is_public,
    person_rating,
    person_rating_history,
    rating_curves,
    rating_list,
)
from ratings.services import ratings_seed_event
from signup.exports import spreadsheet_safe
from stats.pdf import build_statistics_pdf
from stats.plots import cards_chart, rating_chart, svg_data_uri
from stats.selectors import person_stats
from tournament.models import Tournament
from tournament.public_cache import cached_page

CURVES_ON_LIST = 5


def _cached(
    request: HttpRequest, page: str, render_page: Callable[[], HttpResponse]
) -> HttpResponse:
    return cached_page(request, f"ratings:{public_ratings_version()}:{page}", render_page)


def _curves_svg(people: list[Person]) -> str:
    curves = rating_curves(people=people)
    return rating_chart(
        {p.name: [v for _, v in curves[p.pk]] for p in people},
        title=_("Rating after each game"),
        x_title=_("Games"),
    )


def _curves_chart(people: list[Person]) -> str:
    return svg_data_uri(_curves_svg(people))


def _cards_chart(cards: dict[str, int]) -> str:
    """The cards a player played, by kind ("" before any logged play)."""
    if not any(cards.values()):
        return ""
    title = _("Cards played by this player")
    return svg_data_uri(cards_chart(cards, title=title, label=title))


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
                "curves_chart": _curves_chart(top) if top else "",
            },
        )

    return _cached(request, "list", render_page)


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


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    person = _public_person(player_id)

    def render_page() -> HttpResponse:
        history = person_rating_history(person=person)
        stats = person_stats(person=person)
        return render(
            request,
            "ratings/player.html",
            {
                "person": person,
                "rating": person_rating(person=person),
                "history": list(reversed(history)),
                "curves_chart": _curves_chart([person]) if history else "",
                "stats": stats,
                "cards_chart": _cards_chart(stats.cards),
            },
        )

    return _cached(request, f"player-{person.pk}", render_page)


def _public_person(player_id: int) -> Person:
    person = Person.objects.filter(pk=player_id).first()
    if person is None or not person_is_public(person):
        raise Http404
    return person


def player_pdf(request: HttpRequest, player_id: int) -> HttpResponse:
    """A consenting player's page on paper: rating, figures, rating curve, cards played."""
    person = _public_person(player_id)
    rating = person_rating(person=person)
    stats = person_stats(person=person)
    history = person_rating_history(person=person)
    figures = [
        (_("rating"), formats.number_format(rating.ordinal, 1) if rating else "–"),
        (_("uncertainty"), f"± {formats.number_format(rating.sigma, 1)}" if rating else "–"),
        (_("games"), str(len(stats.games))),
        (_("wins"), str(stats.wins)),
        (_("pawns hit by their side"), str(stats.hits_given)),
        (_("pawns of their side hit"), str(stats.hits_taken)),
        (_("comeback wins"), str(stats.comebacks)),
    ]
    charts: list[tuple[str, str]] = []
    if history:
        charts.append((_("Rating after each game"), _curves_svg([person])))
    if any(stats.cards.values()):
        title = _("Cards played by this player")
        charts.append((title, cards_chart(stats.cards, title=title, label=title)))
    name = f"{person.name} ({person.club})" if person.club else person.name
    pdf = build_statistics_pdf(
        title=name, footer=f"{name} · {timezone.localdate()}", figures=figures, charts=charts
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="player-{person.pk}.pdf"'
    return response


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
