"""Public pages: no login. Pairings, standings, a pair's history, the bracket.

Only published rounds are shown here; drafts are for organisers. Every live
page has a fragment (``?fragment=1``) that static/js/autorefresh.js fetches
while the tab is visible.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from competition import selectors
from competition.placings import final_results
from core.request import query_flag, query_text
from tournament.models import Pair, Round, Tournament
from tournament.page_version import cached_public_page
from tournament.permissions import visible_tournament_or_404

REFRESH_SECONDS = 20
SEARCH_LENGTH = 100


def _public_rounds(tournament: Tournament) -> list[Round]:
    return list(selectors.rounds_for_tournament(tournament=tournament))


def _page(
    request: HttpRequest, template: str, fragment: str, context: dict[str, Any]
) -> HttpResponse:
    """The whole page, or only its live fragment for the auto-refresh script."""
    context.setdefault("refresh_seconds", REFRESH_SECONDS)
    if query_flag(request, "fragment"):
        return render(request, fragment, context)
    return render(request, template, {**context, "fragment_template": fragment})


def tournament_home(request: HttpRequest, slug: str) -> HttpResponse:
    def render_page() -> HttpResponse:
        tournament = visible_tournament_or_404(request.user, slug)
        rounds = _public_rounds(tournament)
        return _page(
            request,
            "tournament/public/tournament.html",
            "tournament/public/_rounds_fragment.html",
            {
                "tournament": tournament,
                "rounds": rounds,
                "current": selectors.current_round(tournament=tournament),
                "pair_count": tournament.pairs.exclude(status=Pair.Status.DROPPED).count(),
                "has_knockout": any(r.kind == Round.Kind.KNOCKOUT for r in rounds),
                "final": final_results(tournament=tournament),
            },
        )

    return cached_public_page(request, slug, "home", render_page)


def round_pairings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def render_page() -> HttpResponse:
        tournament = visible_tournament_or_404(request.user, slug)
        round_ = get_object_or_404(
            selectors.rounds_for_tournament(tournament=tournament), number=number
        )
        query = query_text(request, "q", max_length=SEARCH_LENGTH).strip()
        found = selectors.find_table(round=round_, query=query) if query else None
        return _page(
            request,
            "tournament/public/pairings.html",
            "tournament/public/_pairings_fragment.html",
            {
                "tournament": tournament,
                "round": round_,
                "rounds": _public_rounds(tournament),
                "games": selectors.pairings_for_round(round=round_),
                "byes": selectors.byes_for_round(round=round_),
                "query": query,
                "found": found,
                # Tables are followed live once play has begun (and replayed after).
                "live": round_.status in (Round.Status.IN_PROGRESS, Round.Status.CLOSED),
            },
        )

    return cached_public_page(request, slug, f"round-{number}", render_page)


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    def render_page() -> HttpResponse:
        tournament = visible_tournament_or_404(request.user, slug)
        rows = selectors.standings_for_tournament(tournament=tournament)
        return _page(
            request,
            "tournament/public/standings.html",
            "tournament/public/_standings_fragment.html",
            {"tournament": tournament, "rows": rows, "rounds": _public_rounds(tournament)},
        )

    return cached_public_page(request, slug, "standings", render_page)


def pair_detail(request: HttpRequest, slug: str, start_number: int) -> HttpResponse:
    def render_page() -> HttpResponse:
        tournament = visible_tournament_or_404(request.user, slug)
        pair = get_object_or_404(
            Pair.objects.select_related("player_1", "player_2"),
            tournament=tournament,
            start_number=start_number,
        )
        history = selectors.pair_history(pair=pair)
        return _page(
            request,
            "tournament/public/pair.html",
            "tournament/public/_pair_fragment.html",
            {"tournament": tournament, "pair": pair, "history": history},
        )

    return cached_public_page(request, slug, f"pair-{start_number}", render_page)


def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    def render_page() -> HttpResponse:
        tournament = visible_tournament_or_404(request.user, slug)
        bracket_rounds = selectors.bracket_for_tournament(tournament=tournament)
        return _page(
            request,
            "tournament/public/bracket.html",
            "tournament/public/_bracket_fragment.html",
            {"tournament": tournament, "bracket_rounds": bracket_rounds},
        )

    return cached_public_page(request, slug, "bracket", render_page)


def final(request: HttpRequest, slug: str) -> HttpResponse:
    """The champion, the podium and the final standings, once the event is finished."""

    def render_page() -> HttpResponse:
        tournament = visible_tournament_or_404(request.user, slug)
        return _page(
            request,
            "tournament/public/final.html",
            "tournament/public/_final_fragment.html",
            {
                "tournament": tournament,
                "rounds": _public_rounds(tournament),
                "final": final_results(tournament=tournament),
            },
        )

    return cached_public_page(request, slug, "final", render_page)
