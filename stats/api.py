"""Statistics API: an event's or a season's numbers from the move logs (public reads)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from people.models import Person
from ratings.selectors import person_is_public, person_rating, person_rating_history
from season.selectors import series_events, series_for_viewer
from stats import serializers as s
from stats.selectors import StatsPage, person_stats, stats_for_tournament, stats_for_tournaments
from stats.views import write_stats_csv
from tournament.permissions import visible_tournament_or_404


def page_json(page: StatsPage, *, with_games: bool = True) -> dict[str, Any]:
    summary = page.summary
    games = []
    for line in page.lines if with_games else []:
        st = line.stats
        games.append(
            {
                "game_id": line.game.pk, "round": line.game.round.number,
                "table": line.game.table_number, "winner": st.winner, "entries": st.entries,
                "minutes": st.minutes, "seconds_per_entry": st.seconds_per_entry,
                "hits_given": st.hits_given, "hits_taken": st.hits_taken, "cards": st.cards,
                "cards_by_seat": st.cards_by_seat, "discards": st.discards,
                "discarded_cards": st.discarded_cards,
                "swaps": st.swaps, "splits": st.splits, "final_gap": st.final_gap,
                "comeback": st.comeback, "distance": st.distance, "locked": st.locked,
            }
        )  # fmt: skip
    return {
        "summary": {
            "games": summary.games, "entries": summary.entries,
            "entries_per_game": summary.entries_per_game,
            "minutes_per_game": summary.minutes_per_game,
            "seconds_per_entry": summary.seconds_per_entry, "hits": summary.hits,
            "cards": summary.cards, "discards": summary.discards,
            "discarded_cards": summary.discarded_cards, "swaps": summary.swaps,
            "splits": summary.splits,
            "comebacks": [g.game_id for g in summary.comebacks],
            "longest": [g.game_id for g in summary.longest],
            "closest": [g.game_id for g in summary.closest],
            "locked_winners": summary.locked_winners, "locked_losers": summary.locked_losers,
        },
        "games": games,
    }  # fmt: skip


class TournamentStatsView(APIView):
    """The event's statistics: totals and every game with a validated log."""

    @extend_schema(responses=s.StatsPageSerializer)
    def get(self, request: Request, slug: str) -> Response:
        tournament = visible_tournament_or_404(request.user, slug)
        page = stats_for_tournament(tournament=tournament, public=tournament.published)
        return Response(s.StatsPageSerializer(page_json(page)).data)


class TournamentStatsCsvView(APIView):
    """One row per game with a validated log (semicolon-separated, UTF-8 with BOM)."""

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = visible_tournament_or_404(request.user, slug)
        page = stats_for_tournament(tournament=tournament, public=tournament.published)
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{slug}-statistics.csv"'
        response.write("\ufeff")
        write_stats_csv(response, page)
        return response


class SeasonStatsView(APIView):
    """The season's statistics over its published events (totals and notable games)."""

    @extend_schema(responses=s.StatsPageSerializer)
    def get(self, request: Request, season: str) -> Response:
        series = series_for_viewer(slug=season, user=request.user)
        if series is None:
            raise Http404
        tournaments = [e.tournament for e in series_events(series=series)]
        page = stats_for_tournaments(tournaments=tournaments)
        return Response(s.StatsPageSerializer(page_json(page, with_games=False)).data)


class PlayerView(APIView):
    """A consenting player's rating, its history and their numbers from the logs."""

    @extend_schema(
        responses={200: s.RatedPlayerSerializer, 404: OpenApiResponse(description="No such player")}
    )
    def get(self, request: Request, player_id: int) -> Response:
        person = Person.objects.filter(pk=player_id).first()
        if person is None or not person_is_public(person):
            raise Http404
        rating = person_rating(person=person)
        stats = person_stats(person=person)
        history = [
            {
                "game_id": c.game_id, "tournament": c.game.round.tournament.slug,
                "round": c.game.round.number, "won": c.won,
                "rating_before": round(c.ordinal_before, 4),
                "rating_after": round(c.ordinal_after, 4), "sigma_after": round(c.sigma_after, 4),
            }
            for c in person_rating_history(person=person)
        ]  # fmt: skip
        data = {
            "player_id": person.pk, "name": person.name, "club": person.club,
            "rating": round(rating.ordinal, 4) if rating else None,
            "sigma": round(rating.sigma, 4) if rating else None,
            "games": len(stats.games), "wins": stats.wins, "hits_given": stats.hits_given,
            "hits_taken": stats.hits_taken, "comebacks": stats.comebacks,
            "cards": stats.cards, "history": history,
        }  # fmt: skip
        return Response(s.RatedPlayerSerializer(data).data)
