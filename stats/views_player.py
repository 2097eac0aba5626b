"""A player's public page and its PDF: their rating and their numbers from the logs.

Only people who consented to publish are named; anyone else's page is a 404,
the same answer as for a person who does not exist. The page is cached under
the ratings pages' key (``ratings.views.ratings_cached``): it changes with
every rating update, every change to a person and every change of an event's
data (the page lists the games).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from people.models import Person
from printing.charts import cards_chart, svg_data_uri
from ratings.pictures import rating_curves_svg
from ratings.selectors import person_is_public, person_rating, person_rating_history
from ratings.views import rating_curves_chart, ratings_cached
from stats.pdf import build_statistics_pdf
from stats.selectors import person_stats


def _cards_chart(cards: dict[str, int]) -> str:
    """The cards a player played, by kind ("" before any logged play)."""
    if not any(cards.values()):
        return ""
    title = _("Cards played by this player")
    return svg_data_uri(cards_chart(cards, title=title, label=title))


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    person = _public_person(player_id)

    def render_page() -> HttpResponse:
        history = person_rating_history(person=person)
        stats = person_stats(person=person)
        return render(
            request,
            "stats/player.html",
            {
                "person": person,
                "rating": person_rating(person=person),
                "history": list(reversed(history)),
                "curves_chart": rating_curves_chart([person]) if history else "",
                "stats": stats,
                "cards_chart": _cards_chart(stats.cards),
            },
        )

    return ratings_cached(request, f"player-{person.pk}", render_page)


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
        charts.append((_("Rating after each game"), rating_curves_svg([person])))
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
