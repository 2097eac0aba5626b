"""Public statistics pages: per event, per season and per game, with pictures.

Computed from the move logs on a cache miss and cached like the other public
pages: an event's under its data version (every result bumps it), a
season's under the versions of all its events.
"""

from __future__ import annotations

import csv
import hashlib

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from core.cache import cache_key
from core.public_cache import cached_page
from games.engine import CARDS, SEATS
from games.models import Game
from games.selectors import game_players
from printing.charts import (
    cards_by_seat_chart,
    cards_chart,
    distance_chart,
    locked_chart,
    locked_progress_chart,
    rating_chart,
    svg_data_uri,
)
from ratings.page_version import public_ratings_version
from ratings.selectors import rating_curves, top_rated_people
from season.selectors import series_events, series_for_viewer, visible_series
from stats.compute import GameStats, Summary
from stats.pdf import build_statistics_pdf
from stats.selectors import (
    StatsPage,
    game_has_result,
    game_with_stats,
    stats_for_tournament,
    stats_for_tournaments,
)
from stats.templatetags.stats_tags import rounded
from tournament.models import Tournament
from tournament.page_version import cached_public_page
from tournament.permissions import visible_tournament_or_404


def locked_svg(summary: Summary) -> str:
    """Average locked pawns of winners and losers over the games ("" without a finished game)."""
    if not summary.locked_winners:
        return ""
    return locked_progress_chart(
        {_("Winners"): summary.locked_winners, _("Losers"): summary.locked_losers},
        title=_("Locked pawns per team, on average"),
        x_title=_("Share of the game's entries"),
    )


def summary_charts(summary: Summary) -> dict[str, str]:
    """The pictures every statistics page shows, as ``data:`` addresses."""
    if not summary.games:
        return {}
    cards = cards_chart(summary.cards, title=_("Cards played"), label=_("Cards played"))
    charts = {"cards_chart": svg_data_uri(cards)}
    locked = locked_svg(summary)
    if locked:
        charts["locked_chart"] = svg_data_uri(locked)
    return charts


def _context(page: StatsPage) -> dict[str, object]:
    return {"page": page, "summary": page.summary, **summary_charts(page.summary)}


def stats_index(request: HttpRequest) -> HttpResponse:
    """Which events and seasons have statistics: published events with results."""
    tournaments = (
        Tournament.objects.filter(published=True, rounds__games__winner__in=("YB", "RG"))
        .distinct()
        .order_by("-date", "name")
    )
    seasons = visible_series(request.user).order_by("-created_at")
    return render(request, "stats/index.html", {"tournaments": tournaments, "seasons": seasons})


def tournament_stats(request: HttpRequest, slug: str) -> HttpResponse:
    def render_page() -> HttpResponse:
        tournament = visible_tournament_or_404(request.user, slug)
        page = stats_for_tournament(tournament=tournament, public=tournament.published)
        return render(
            request, "stats/tournament.html", {"tournament": tournament, **_context(page)}
        )

    return cached_public_page(request, slug, "statistics", render_page)


def tournament_stats_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """One row per game with a validated log: the event's statistics for a spreadsheet."""
    tournament = visible_tournament_or_404(request.user, slug)
    page = stats_for_tournament(tournament=tournament, public=tournament.published)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    name = f"{tournament.slug}-statistics-{stamp}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response.write("\ufeff")
    write_stats_csv(response, page)
    return response


STATS_CSV_COLUMNS = (
    "round",
    "table",
    "winner",
    "entries",
    "minutes",
    "seconds_per_entry",
    "hits_given_yb",
    "hits_given_rg",
    "hits_taken_yb",
    "hits_taken_rg",
    "discards",
    "discarded_cards",
    "swaps",
    "splits",
    "final_gap",
    "comeback",
    *[f"card_{c}" for c in CARDS],
)


def write_stats_csv(out: object, page: StatsPage) -> None:
    writer = csv.writer(out, delimiter=";")  # type: ignore[arg-type]
    writer.writerow(STATS_CSV_COLUMNS)
    for line in page.lines:
        s = line.stats
        minutes = "" if s.minutes is None else f"{s.minutes:.1f}"
        per_entry = "" if s.seconds_per_entry is None else f"{s.seconds_per_entry:.1f}"
        writer.writerow(
            [
                line.game.round.number,
                line.game.table_number,
                s.winner or "",
                s.entries,
                minutes,
                per_entry,
                s.hits_given["YB"],
                s.hits_given["RG"],
                s.hits_taken["YB"],
                s.hits_taken["RG"],
                s.discards,
                s.discarded_cards,
                s.swaps,
                s.splits,
                s.final_gap,
                "yes" if s.comeback else "",
                *[s.cards[c] for c in CARDS],
            ]
        )


def seat_lines(game: Game, stats: GameStats) -> list[tuple[str, str, dict[str, int]]]:
    """(seat, player's name, cards played) per seat, Yellow, Red, Blue, Green."""
    names = game_players(game=game)
    return [(seat, names[seat], stats.cards_by_seat[seat]) for seat in SEATS]


def _game_charts(game: Game, stats: GameStats) -> dict[str, str]:
    teams = (_("Yellow/Blue"), _("Red/Green"))
    distance = distance_chart(
        stats.distance, title=_("Remaining distance"), teams=teams, x_title=_("Entry")
    )
    locked = locked_chart(stats.locked, title=_("Locked pawns"), teams=teams, x_title=_("Entry"))
    cards = cards_chart(stats.cards, title=_("Cards played"), label=_("Cards played"))
    by_seat = cards_by_seat_chart(
        {f"{seat}: {name}": cards for seat, name, cards in seat_lines(game, stats)},
        title=_("Cards played, by player"),
    )
    return {
        "distance_chart": svg_data_uri(distance),
        "locked_chart": svg_data_uri(locked),
        "cards_chart": svg_data_uri(cards),
        "seat_cards_chart": svg_data_uri(by_seat),
    }


def game_stats_page(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    def render_page() -> HttpResponse:
        tournament = visible_tournament_or_404(request.user, slug)
        line = game_with_stats(tournament=tournament, game_id=game_id, public=tournament.published)
        if line is None:
            raise Http404
        context: dict[str, object] = {"tournament": tournament, "line": line, "stats": line.stats}
        if line.stats is not None:
            context.update(_game_charts(line.game, line.stats))
            seats = seat_lines(line.game, line.stats)
            context["seat_players"] = [(seat, name) for seat, name, _cards in seats]
            context["seat_rows"] = [(card, [cards[card] for *_, cards in seats]) for card in CARDS]
        return render(request, "stats/game.html", context)

    if not game_has_result(game_id=game_id):
        return render_page()  # still played: its log grows without a data-version bump
    return cached_public_page(request, slug, f"statistics-game-{game_id}", render_page)


def _curves_svg(tournaments: list[Tournament]) -> str:
    """The rating curves of the best-rated (consenting) players of these events ("" if none)."""
    people = top_rated_people(tournaments=tournaments)
    if not people:
        return ""
    curves = rating_curves(people=people, tournaments=tournaments)
    return rating_chart(
        {p.name: [v for _, v in curves[p.pk]] for p in people},
        title=_("Rating after each game"),
        x_title=_("Games"),
    )


def _curves(tournaments: list[Tournament]) -> dict[str, str]:
    svg = _curves_svg(tournaments)
    return {"curves_chart": svg_data_uri(svg)} if svg else {}


def season_stats(request: HttpRequest, season: str) -> HttpResponse:
    series = series_for_viewer(slug=season, user=request.user)
    if series is None:
        raise Http404
    events = series_events(series=series)
    tournaments = [e.tournament for e in events]

    def render_page() -> HttpResponse:
        page = stats_for_tournaments(tournaments=tournaments)
        return render(
            request,
            "stats/season.html",
            {"series": series, "events": events, **_context(page), **_curves(tournaments)},
        )

    if not series.published:
        return render_page()
    # The rating curves follow games of any event (a player's other events too):
    # the ratings' version (every event's data version, the people) keys the page.
    versions = repr(
        ([(t.pk, t.data_version, t.published) for t in tournaments], public_ratings_version())
    )
    digest = hashlib.blake2b(versions.encode(), digest_size=8).hexdigest()
    created = series.created_at.timestamp()
    key = cache_key("stats-season", series.pk, f"{created:.6f}", series.data_version, digest)
    return cached_page(request, key, render_page)


def _figures(summary: Summary) -> list[tuple[str, str]]:
    def number(value: float | None) -> str:
        return "–" if value is None else f"{value:.0f}"

    return [
        (_("games with a validated log"), str(summary.games)),
        (_("entries per game"), number(summary.entries_per_game)),
        (_("minutes per game"), rounded(summary.minutes_per_game)),
        (_("seconds per entry"), rounded(summary.seconds_per_entry)),
        (_("pawns hit"), str(summary.hits)),
        (_("hands discarded"), str(summary.discards)),
        (_("swaps (J)"), str(summary.swaps)),
        (_("split sevens"), str(summary.splits)),
        (_("comeback wins"), str(len(summary.comebacks))),
    ]


def statistics_charts(page: StatsPage, tournaments: list[Tournament]) -> list[tuple[str, str]]:
    """The (caption, SVG) pictures of an event's or a season's PDF: card usage, locked
    pawns over the games, the closest game's distance, the top players' rating curves."""
    summary = page.summary
    charts: list[tuple[str, str]] = []
    if summary.games:
        charts.append(
            (
                _("Cards played, by kind"),
                cards_chart(summary.cards, title=_("Cards played"), label=_("Cards played")),
            )
        )
    locked = locked_svg(summary)
    if locked:
        charts.append((_("Locked pawns over the games"), locked))
    if summary.closest:
        closest = page.line(summary.closest[0].game_id)
        assert closest is not None
        heading = _("Closest game: %(event)s, round %(round)d, table %(table)d") % {
            "event": closest.game.round.tournament.name,
            "round": closest.game.round.number,
            "table": closest.game.table_number,
        }
        teams = (_("Yellow/Blue"), _("Red/Green"))
        charts.append(
            (
                heading,
                distance_chart(
                    closest.stats.distance,
                    title=_("Remaining distance"),
                    teams=teams,
                    x_title=_("Entry"),
                ),
            )
        )
    curves = _curves_svg(tournaments)
    if curves:
        charts.append((_("Rating after each game of the top players"), curves))
    return charts


def _pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def tournament_stats_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's statistics on paper: the figures and the pictures of its page."""
    tournament = visible_tournament_or_404(request.user, slug)
    page = stats_for_tournament(tournament=tournament, public=tournament.published)
    pdf = build_statistics_pdf(
        title=f"{tournament.name}: {_('statistics')}",
        footer=f"{tournament.name} · {formats.date_format(tournament.date)}",
        figures=_figures(page.summary),
        charts=statistics_charts(page, [tournament]),
    )
    return _pdf_response(pdf, f"{tournament.slug}-statistics.pdf")


def season_stats_pdf(request: HttpRequest, season: str) -> HttpResponse:
    """The season's statistics on paper: its events' figures and pictures together."""
    series = series_for_viewer(slug=season, user=request.user)
    if series is None:
        raise Http404
    tournaments = [e.tournament for e in series_events(series=series)]
    page = stats_for_tournaments(tournaments=tournaments)
    pdf = build_statistics_pdf(
        title=f"{series.name}: {_('statistics')}",
        footer=f"{series.name} · {formats.date_format(timezone.localdate())}",
        figures=_figures(page.summary),
        charts=statistics_charts(page, tournaments),
    )
    return _pdf_response(pdf, f"{series.slug}-statistics.pdf")
