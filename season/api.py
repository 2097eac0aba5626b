"""Season API. Thin: parse, call a service or selector, answer.

Reads are public for published seasons (their published tournaments only);
writes need an organiser of *that* season (creating one: any signed-in
user). The ranking is also a CSV download.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api_errors import ApiErrorSerializer
from core.errors import NotFound
from core.users import signed_in_user
from people.models import Person, PersonAudit, PersonMatch
from season import serializers as s
from season.models import Series, SeriesEvent
from season.permissions import is_series_organiser, require_series_organiser
from season.selectors import (
    SeasonOverview,
    person_matches_for,
    series_for_viewer,
    series_overview,
    series_people,
    visible_series,
)
from season.services import final as final_service
from season.services import people as people_service
from season.services import series as series_service
from season.views.public import write_ranking_csv
from tournament.models import Tournament

ERRORS = {
    400: OpenApiResponse(ApiErrorSerializer, description="Invalid request (bilingual error)."),
    403: OpenApiResponse(ApiErrorSerializer, description="Not an organiser of this season."),
    409: OpenApiResponse(ApiErrorSerializer, description="Not possible in the current state."),
}


def _series(request: Request, slug: str) -> Series:
    series = series_for_viewer(slug=slug, user=request.user)
    if series is None:
        raise Http404
    return series


def _organised(request: Request, slug: str) -> Series:
    series = get_object_or_404(Series, slug=slug)
    require_series_organiser(request.user, series)
    return series


def _detail(request: Request, series: Series) -> dict[str, Any]:
    overview = series_overview(series=series, public=not is_series_organiser(request.user, series))
    return s.SeasonDetailSerializer(series, context={"overview": overview}).data


def _slugs(overview: SeasonOverview) -> dict[int, str]:
    return {entry.event.pk: entry.tournament.slug for entry in overview.calendar}


class SeasonListView(APIView):
    @extend_schema(responses=s.SeasonSerializer(many=True))
    def get(self, request: Request) -> Response:
        seasons = visible_series(request.user).order_by("-created_at")
        return Response(s.SeasonSerializer(seasons, many=True).data)

    @extend_schema(
        request=s.SeasonCreateInputSerializer, responses={201: s.SeasonDetailSerializer, **ERRORS}
    )
    def post(self, request: Request) -> Response:
        data = s.SeasonCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        series = series_service.series_create(actor=request.user, **data.validated_data)
        return Response(_detail(request, series), status=status.HTTP_201_CREATED)


class SeasonDetailView(APIView):
    """A season: its rules and its calendar with each event's podium."""

    @extend_schema(responses=s.SeasonDetailSerializer)
    def get(self, request: Request, season: str) -> Response:
        return Response(_detail(request, _series(request, season)))

    @extend_schema(
        request=s.SeasonInputSerializer, responses={200: s.SeasonDetailSerializer, **ERRORS}
    )
    def patch(self, request: Request, season: str) -> Response:
        series = _organised(request, season)
        data = s.SeasonInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        series = series_service.series_update(
            series=series, actor=request.user, **data.validated_data
        )
        return Response(_detail(request, series))


class SeasonRankingView(APIView):
    """The live qualification ranking, best first."""

    @extend_schema(responses=s.RankingRowSerializer(many=True))
    def get(self, request: Request, season: str) -> Response:
        series = _series(request, season)
        overview = series_overview(
            series=series, public=not is_series_organiser(request.user, series)
        )
        return Response(
            s.RankingRowSerializer(
                overview.ranking, many=True, context={"slugs": _slugs(overview)}
            ).data
        )


class SeasonRankingCsvView(APIView):
    """The qualification ranking as CSV (semicolon-separated, UTF-8 with BOM)."""

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, season: str) -> HttpResponse:
        series = _series(request, season)
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{series.slug}-ranking.csv"'
        response.write("\ufeff")
        write_ranking_csv(response, series_overview(series=series))
        return response


class SeasonEventsView(APIView):
    """Put one of your tournaments in the season, as a qualifier or its final."""

    @extend_schema(
        request=s.EventInputSerializer, responses={201: s.SeasonDetailSerializer, **ERRORS}
    )
    def post(self, request: Request, season: str) -> Response:
        series = _organised(request, season)
        data = s.EventInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = Tournament.objects.filter(slug=data.validated_data["tournament"]).first()
        if tournament is None:
            raise NotFound("tournament_not_found", _("No such tournament."))
        series_service.series_event_add(
            series=series,
            actor=request.user,
            tournament=tournament,
            kind=data.validated_data["kind"],
        )
        return Response(_detail(request, series), status=status.HTTP_201_CREATED)


class SeasonEventRemoveView(APIView):
    @extend_schema(request=None, responses={200: s.SeasonDetailSerializer, **ERRORS})
    def post(self, request: Request, season: str, event_id: int) -> Response:
        series = _organised(request, season)
        event = get_object_or_404(SeriesEvent, pk=event_id, series=series)
        series_service.series_event_remove(series=series, actor=request.user, event=event)
        return Response(_detail(request, series))


class SeasonFinalView(APIView):
    """Create the final from the qualified pairs, seeded by the ranking."""

    @extend_schema(
        request=s.FinalInputSerializer, responses={201: s.FinalCreatedSerializer, **ERRORS}
    )
    def post(self, request: Request, season: str) -> Response:
        series = _organised(request, season)
        data = s.FinalInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        created = final_service.series_final_create(
            series=series, actor=request.user, **data.validated_data
        )
        return Response(s.FinalCreatedSerializer(created).data, status=status.HTTP_201_CREATED)


class SeasonPeopleView(APIView):
    """Everyone who played in the season, likely duplicates and the merges made."""

    @extend_schema(responses={200: s.SeasonPeopleSerializer, **ERRORS})
    def get(self, request: Request, season: str) -> Response:
        series = _organised(request, season)
        people = series_people(series=series, actor=request.user)
        return Response(s.SeasonPeopleSerializer(people).data)


def _person(series: Series, person_id: int, field: str) -> Person:
    person = (
        Person.objects.filter(players__tournament__season_events__series=series, pk=person_id)
        .distinct()
        .first()
    )
    if person is None:
        raise NotFound(
            "person_not_in_season",
            _("%(field)s: nobody with that id played in this season."),
            params={"field": field},
        )
    return person


class SeasonMergeView(APIView):
    @extend_schema(request=s.MergeInputSerializer, responses={200: s.MergeSerializer, **ERRORS})
    def post(self, request: Request, season: str) -> Response:
        series = _organised(request, season)
        data = s.MergeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        merge = people_service.season_persons_merge(
            series=series,
            actor=request.user,
            survivor=_person(series, data.validated_data["survivor"], "survivor"),
            duplicate=_person(series, data.validated_data["duplicate"], "duplicate"),
        )
        return Response(s.MergeSerializer(merge).data)


class SeasonPersonsApartView(APIView):
    """A likely duplicate is two humans: never suggested again."""

    @extend_schema(
        request=s.ApartInputSerializer, responses={200: s.PersonMatchDecidedSerializer, **ERRORS}
    )
    def post(self, request: Request, season: str) -> Response:
        series = _organised(request, season)
        data = s.ApartInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        apart = people_service.season_persons_apart(
            series=series,
            actor=request.user,
            first=_person(series, data.validated_data["first"], "first"),
            second=_person(series, data.validated_data["second"], "second"),
        )
        return Response(s.PersonMatchDecidedSerializer(apart).data)


class SeasonMergeUndoView(APIView):
    @extend_schema(request=None, responses={200: s.MergeSerializer, **ERRORS})
    def post(self, request: Request, season: str, merge_id: int) -> Response:
        series = _organised(request, season)
        merge = get_object_or_404(PersonAudit, pk=merge_id, action=PersonAudit.Action.MERGE)
        people_service.season_person_merge_undo(series=series, actor=request.user, merge=merge)
        merge.refresh_from_db()
        return Response(s.MergeSerializer(merge).data)


class SeasonPersonAnonymiseView(APIView):
    """On the person's request: their name is replaced everywhere, contact data deleted."""

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def post(self, request: Request, season: str, person_id: int) -> Response:
        series = _organised(request, season)
        people_service.season_person_anonymise(
            series=series, actor=request.user, person=_person(series, person_id, "person")
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class PersonMatchesView(APIView):
    """Suggested matches (a registration found a known person of another
    organiser's events): staff see all, an organiser those of their own people."""

    @extend_schema(responses={200: s.PersonMatchesSerializer, **ERRORS})
    def get(self, request: Request) -> Response:
        signed_in_user(request.user)
        return Response(s.PersonMatchesSerializer(person_matches_for(actor=request.user)).data)


class _PersonMatchActionView(APIView):
    action_name = ""

    @extend_schema(request=None, responses={200: s.PersonMatchDecidedSerializer, **ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        signed_in_user(request.user)
        match = get_object_or_404(PersonMatch, pk=match_id)
        action = getattr(people_service, self.action_name)
        decided = action(match=match, actor=request.user)
        return Response(s.PersonMatchDecidedSerializer(decided).data)


class PersonMatchConfirmView(_PersonMatchActionView):
    """The same human: the new person is merged into the known one."""

    action_name = "person_match_confirm"


class PersonMatchDismissView(_PersonMatchActionView):
    """Two different humans: never suggested again."""

    action_name = "person_match_dismiss"


class PersonMatchUndoView(_PersonMatchActionView):
    """Undo a confirmed match's merge; the suggestion is open again."""

    action_name = "person_match_undo"
