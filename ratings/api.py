"""Ratings API. Thin: a selector or service, then the answer.

Public: the rating list (consenting players only, also as CSV); a consenting
player's page is the statistics API's (``stats.api.PlayerView``). Seeding an
event by rating is for its organisers.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api_errors import ApiErrorSerializer
from ratings import serializers as s
from ratings.selectors import rating_list
from ratings.services import ratings_seed_event
from ratings.views import write_ratings_csv
from tournament.models import Tournament


def rating_rows() -> list[dict[str, object]]:
    return [
        {
            "rank": rank, "player_id": r.person_id, "name": r.person.name, "club": r.person.club,
            "rating": round(r.ordinal, 4), "mu": round(r.mu, 4), "sigma": round(r.sigma, 4),
            "games": r.games, "wins": r.wins,
        }
        for rank, r in enumerate(rating_list(), start=1)
    ]  # fmt: skip


class RatingListView(APIView):
    """Every consenting rated player, best rating first."""

    @extend_schema(responses=s.RatingSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(s.RatingSerializer(rating_rows(), many=True).data)


class RatingCsvView(APIView):
    """The rating list as CSV (semicolon-separated, UTF-8 with BOM)."""

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request) -> HttpResponse:
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="ratings.csv"'
        response.write("\ufeff")
        write_ratings_csv(response)
        return response


class SeedByRatingView(APIView):
    """Seed the event's pairs by their players' ratings (organisers).

    Then pair round 1 "by seed" (or automatically) and make the knockout
    "from the seeds" to follow the ratings.
    """

    @extend_schema(
        request=None,
        responses={
            200: s.SeedResultSerializer,
            403: OpenApiResponse(ApiErrorSerializer, description="Not an organiser."),
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = get_object_or_404(Tournament, slug=slug)
        seeded = ratings_seed_event(tournament=tournament, actor=request.user)
        return Response({"seeded": seeded})
