"""Public season pages: no login. Calendar, results, qualification ranking, CSV.

Cached like the tournaments' public pages: the key holds the season's data
version and every one of its tournaments' data versions, so a result typed
in any qualifier (which bumps that tournament's version) shows at once.
"""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from core.cache import cache_key
from core.public_cache import cached_page
from core.request import query_flag
from people.page_version import public_people_version
from season.models import Series, SeriesEvent
from season.selectors import SeasonOverview, series_for_viewer, series_overview, visible_series
from signup.exports import spreadsheet_safe

REFRESH_SECONDS = 60


def _series(request: HttpRequest, slug: str) -> Series:
    series = series_for_viewer(slug=slug, user=request.user)
    if series is None:
        raise Http404
    return series


def _version_key(series: Series, page: str) -> str:
    events = SeriesEvent.objects.filter(series=series).order_by("pk")
    versions = list(
        events.values_list(
            "tournament_id", "tournament__data_version", "tournament__published", "kind"
        )
    )
    # The pages name public people only: who is public (and how they are named) keys them.
    text = repr((versions, public_people_version()))
    digest = hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
    created = series.created_at.timestamp()
    return cache_key("season", series.pk, f"{created:.6f}", series.data_version, digest, page)


def _cached(
    request: HttpRequest, series: Series, page: str, render_page: Callable[[], HttpResponse]
) -> HttpResponse:
    if not series.published:
        return render_page()
    return cached_page(request, _version_key(series, page), render_page)


def season_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "season/list.html",
        {"seasons": visible_series(request.user).order_by("-created_at")},
    )


def season_overview(request: HttpRequest, season: str) -> HttpResponse:
    series = _series(request, season)

    def render_page() -> HttpResponse:
        overview = series_overview(series=series)
        return render(request, "season/overview.html", {"series": series, "overview": overview})

    return _cached(request, series, "overview", render_page)


def season_ranking(request: HttpRequest, season: str) -> HttpResponse:
    series = _series(request, season)

    def render_page() -> HttpResponse:
        overview = series_overview(series=series)
        context = {"series": series, "overview": overview, "refresh_seconds": REFRESH_SECONDS}
        if query_flag(request, "fragment"):
            return render(request, "season/_ranking_fragment.html", context)
        return render(
            request,
            "season/ranking.html",
            {**context, "fragment_template": "season/_ranking_fragment.html"},
        )

    return _cached(request, series, "ranking", render_page)


def season_ranking_csv(request: HttpRequest, season: str) -> HttpResponse:
    """The qualification ranking as CSV (names and results only: no contact data)."""
    series = _series(request, season)
    overview = series_overview(series=series)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response["Content-Disposition"] = f'attachment; filename="{series.slug}-ranking-{stamp}.csv"'
    response.write("\ufeff")
    write_ranking_csv(response, overview)
    return response


def write_ranking_csv(out: object, overview: SeasonOverview) -> None:
    """The ranking rows, one column pair (place, points) per qualifier. Semicolons: Excel (da)."""
    writer = csv.writer(out, delimiter=";")  # type: ignore[arg-type]
    events = overview.qualifiers
    writer.writerow(
        [
            "rank",
            "pair",
            "player_1",
            "player_2",
            "club",
            "points",
            "qualified",
            *[f"{e.tournament.slug} {col}" for e in events for col in ("place", "points")],
        ]
    )
    for row in overview.ranking:
        cells: list[object] = []
        for event in events:
            result = row.results.get(event.pk)
            cells += [result.place, result.points] if result else ["", ""]
        name_1, name_2 = (*row.entry.player_names, "")[:2]
        writer.writerow(
            [
                f"{row.rank}{'=' if row.shared_rank else ''}",
                *map(spreadsheet_safe, (row.entry.pair_name, name_1, name_2, row.entry.pair.club)),
                row.points,
                "yes" if row.qualified else "",
                *cells,
            ]
        )
