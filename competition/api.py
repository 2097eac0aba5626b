"""REST API of tournaments, pairs, rounds and results (thin: parse, call, answer).

Reads are public for published tournaments (drafts only for the organisers);
every write needs an organiser of *that* tournament. Authentication is the
Django session (CSRF-protected). Expected failures answer
``{"error": {"code", "message", "message_en", "message_da"}}``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from competition import selectors
from competition import serializers as s
from competition.pairs_csv import pairs_csv_read
from competition.services import knockout, pairing
from core.api_errors import ApiErrorSerializer
from core.errors import ApplicationError, PermissionDenied
from core.request import query_int
from games.models import Game
from games.services.results import game_result_clear, game_result_record
from people.selectors_public import public_names
from tournament.models import MAX_ROUND_NUMBER, Pair, Round, Tournament, TournamentRole
from tournament.permissions import (
    drafts_visible,
    is_judge,
    require_organiser,
    visible_rounds,
    visible_tournaments,
)
from tournament.services import registration

ERRORS = {
    400: OpenApiResponse(ApiErrorSerializer, description="Invalid request (bilingual error)."),
    403: OpenApiResponse(ApiErrorSerializer, description="Not an organiser of this tournament."),
    409: OpenApiResponse(ApiErrorSerializer, description="Not possible in the current state."),
}


def _pair_context(request: Request, tournament: Tournament, pairs: list[Pair]) -> dict[str, Any]:
    """What ``PairSerializer`` shows: everything to the event's judges and organisers,
    else person ids and ratings of public people only (one query for all pairs)."""
    if is_judge(request.user, tournament):
        return {"staff": True}
    return {"names": public_names(pairs=pairs)}


def _write(ok: Any, code: int = 200) -> dict[int, Any]:
    return {code: ok, **ERRORS}


class OrganiserWrites(BasePermission):
    """Reads for everyone who can see the tournament; writes for its organisers.

    Refuses with the bilingual ApplicationError so every 403 has one shape.
    """

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        if getattr(view, "action", "") is None:
            # No handler for this method (e.g. TRACE, PUT): let DRF answer 405
            # instead of looking up a tournament the URL does not name.
            return True
        if getattr(view, "action", None) == "metadata":
            # OPTIONS asks "may I POST?" to describe the writes: answer, don't refuse.
            try:
                return self._may_write(request, view)
            except ApplicationError:
                return False
        return self._may_write(request, view)

    @staticmethod
    def _may_write(request: Request, view: Any) -> bool:
        creating = getattr(view, "action", None) == "create" or "slug" not in view.kwargs
        if creating and isinstance(view, TournamentViewSet):
            if not request.user.is_authenticated:
                raise PermissionDenied(_("Sign in to create a tournament."))
            return True
        require_organiser(request.user, view.get_tournament())
        return True


def _rounds_visible(request: Request, tournament: Tournament) -> bool:
    """Whether drafts may be shown (the event's organisers and judges)."""
    return drafts_visible(request.user, tournament)


def _pair_in(tournament: Tournament, pair_id: int, field: str) -> Pair:
    pair = Pair.objects.filter(tournament=tournament, pk=pair_id).first()
    if pair is None:
        raise ApplicationError(
            "pair_not_in_tournament",
            _("%(field)s: no such pair in this tournament."),
            params={"field": field},
        )
    return pair


class TournamentViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """Tournaments, and everything addressed by the tournament's short name."""

    serializer_class = s.TournamentSerializer
    permission_classes = [OrganiserWrites]
    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"

    def get_queryset(self) -> QuerySet[Tournament]:
        return visible_tournaments(self.request.user).order_by("-date", "name")

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            self._tournament = get_object_or_404(self.get_queryset(), slug=self.kwargs["slug"])
        return self._tournament

    @extend_schema(
        request=s.TournamentCreateInputSerializer, responses=_write(s.TournamentSerializer, 201)
    )
    def create(self, request: Request) -> Response:
        data = s.TournamentCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = registration.tournament_create(actor=request.user, **data.validated_data)
        return Response(s.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.TournamentUpdateInputSerializer, responses=_write(s.TournamentSerializer)
    )
    def partial_update(self, request: Request, slug: str) -> Response:
        data = s.TournamentUpdateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = registration.tournament_update(
            tournament=self.get_tournament(), actor=request.user, **data.validated_data
        )
        return Response(s.TournamentSerializer(tournament).data)

    @extend_schema(methods=["GET"], responses=s.PairSerializer(many=True))
    @extend_schema(
        methods=["POST"],
        request=s.PairCreateInputSerializer,
        responses=_write(s.PairSerializer, 201),
    )
    @action(detail=True, methods=["get", "post"])
    def pairs(self, request: Request, slug: str) -> Response:
        tournament = self.get_tournament()
        if request.method == "GET":
            pairs = list(
                tournament.pairs.select_related("player_1", "player_2").order_by("start_number")
            )
            context = _pair_context(request, tournament, pairs)
            return Response(s.PairSerializer(pairs, many=True, context=context).data)
        data = s.PairCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pair = registration.pair_register(
            tournament=tournament, actor=request.user, **data.validated_data
        )
        context = _pair_context(request, tournament, [pair])
        return Response(
            s.PairSerializer(pair, context=context).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        request=s.PairsImportInputSerializer,
        responses={
            201: s.ImportReportSerializer,
            400: OpenApiResponse(
                PolymorphicProxySerializer(
                    component_name="PairsImportRefused",
                    serializers=[s.ImportReportSerializer, ApiErrorSerializer],
                    resource_type_field_name=None,
                ),
                description="Bad rows (the report), or no csv_text (an error); nothing was "
                "imported.",
            ),
            403: ERRORS[403],
        },
    )
    @action(detail=True, methods=["post"], url_path="pairs/import")
    def pairs_import(self, request: Request, slug: str) -> Response:
        data = s.PairsImportInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = self.get_tournament()
        read = pairs_csv_read(data.validated_data["csv_text"], singles=tournament.is_singles)
        report = registration.pairs_import_csv(
            tournament=tournament, actor=request.user, rows=read.rows, refused=read.refused
        )
        code = status.HTTP_201_CREATED if report.ok else status.HTTP_400_BAD_REQUEST
        context = _pair_context(request, tournament, report.created)
        return Response(s.ImportReportSerializer(report, context=context).data, status=code)

    @extend_schema(responses=s.RoundSerializer(many=True))
    @action(detail=True, methods=["get"])
    def rounds(self, request: Request, slug: str) -> Response:
        tournament = self.get_tournament()
        rounds = selectors.rounds_for_tournament(
            tournament=tournament, include_drafts=_rounds_visible(request, tournament)
        ).prefetch_related("byes__pair__player_1", "byes__pair__player_2")
        return Response(s.RoundSerializer(rounds, many=True).data)

    @extend_schema(
        request=s.RoundPairInputSerializer, responses=_write(s.RoundDetailSerializer, 201)
    )
    @action(detail=True, methods=["post"], url_path="rounds/pair")
    def rounds_pair(self, request: Request, slug: str) -> Response:
        data = s.RoundPairInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = pairing.round_pair(
            tournament=self.get_tournament(), actor=request.user, **data.validated_data
        )
        return Response(s.RoundDetailSerializer(round_).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "round", OpenApiTypes.INT, description="Standings after this round number."
            )
        ],
        responses=s.StandingRowSerializer(many=True),
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, slug: str) -> Response:
        up_to = query_int(
            request,
            "round",
            minimum=0,
            maximum=MAX_ROUND_NUMBER,
            error=ApplicationError(
                "round_param_invalid",
                _("round must be a round number."),
            ),
        )
        rows = selectors.standings_for_tournament(
            tournament=self.get_tournament(), up_to_round=up_to
        )
        return Response(s.StandingRowSerializer(rows, many=True).data)

    @extend_schema(responses=s.BracketRoundSerializer(many=True))
    @action(detail=True, methods=["get"])
    def bracket(self, request: Request, slug: str) -> Response:
        tournament = self.get_tournament()
        rounds = selectors.bracket_for_tournament(
            tournament=tournament, include_drafts=_rounds_visible(request, tournament)
        )
        return Response(s.BracketRoundSerializer(rounds, many=True).data)

    @extend_schema(
        request=s.KnockoutInputSerializer, responses=_write(s.RoundDetailSerializer, 201)
    )
    @action(detail=True, methods=["post"])
    def knockout(self, request: Request, slug: str) -> Response:
        data = s.KnockoutInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = knockout.knockout_create(
            tournament=self.get_tournament(), actor=request.user, **data.validated_data
        )
        return Response(s.RoundDetailSerializer(round_).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={
            201: s.RoundDetailSerializer,
            204: OpenApiResponse(description="The final has been played; nothing to create."),
            **ERRORS,
        },
    )
    @action(detail=True, methods=["post"], url_path="knockout/advance")
    def knockout_advance(self, request: Request, slug: str) -> Response:
        round_ = knockout.knockout_advance(tournament=self.get_tournament(), actor=request.user)
        if round_ is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(s.RoundDetailSerializer(round_).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.RoleInputSerializer, responses=_write(None, 204))
    @action(detail=True, methods=["post"])
    def roles(self, request: Request, slug: str) -> Response:
        data = s.RoleInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        registration.tournament_role_grant(
            tournament=self.get_tournament(),
            actor=request.user,
            user=self._user(data.validated_data["username"]),
            role=TournamentRole.Role(data.validated_data["role"]),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=s.RoleInputSerializer, responses=_write(None, 204))
    @action(detail=True, methods=["post"], url_path="roles/revoke")
    def roles_revoke(self, request: Request, slug: str) -> Response:
        data = s.RoleInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        registration.tournament_role_revoke(
            tournament=self.get_tournament(),
            actor=request.user,
            user=self._user(data.validated_data["username"]),
            role=TournamentRole.Role(data.validated_data["role"]),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)

    @staticmethod
    def _user(username: str) -> Any:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise ApplicationError("user_not_found", _("No user with that name."))
        return user


class PairViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = s.PairSerializer
    lookup_value_regex = "[0-9]+"
    permission_classes = [OrganiserWrites]

    def get_queryset(self) -> QuerySet[Pair]:
        return Pair.objects.filter(
            tournament__in=visible_tournaments(self.request.user)
        ).select_related("tournament", "player_1", "player_2")

    def get_tournament(self) -> Tournament:
        pair: Pair = self.get_object()
        return pair.tournament

    def retrieve(self, request: Request, pk: str) -> Response:
        return self._answer(self.get_object())

    def _answer(self, pair: Pair) -> Response:
        pair = self.get_queryset().get(pk=pair.pk)
        context = _pair_context(self.request, pair.tournament, [pair])
        return Response(s.PairSerializer(pair, context=context).data)

    @extend_schema(request=s.PairUpdateInputSerializer, responses=_write(s.PairSerializer))
    def partial_update(self, request: Request, pk: str) -> Response:
        data = s.PairUpdateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pair = registration.pair_update(
            pair=self.get_object(), actor=request.user, **data.validated_data
        )
        return self._answer(pair)

    @extend_schema(request=None, responses=_write(s.PairSerializer))
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, pk: str) -> Response:
        return self._answer(registration.pair_check_in(pair=self.get_object(), actor=request.user))

    @extend_schema(request=None, responses=_write(s.PairSerializer))
    @action(detail=True, methods=["post"], url_path="check-out")
    def check_out(self, request: Request, pk: str) -> Response:
        return self._answer(registration.pair_check_out(pair=self.get_object(), actor=request.user))

    @extend_schema(request=None, responses=_write(s.PairSerializer))
    @action(detail=True, methods=["post"])
    def drop(self, request: Request, pk: str) -> Response:
        return self._answer(registration.pair_drop(pair=self.get_object(), actor=request.user))

    @extend_schema(request=s.FixedTableInputSerializer, responses=_write(s.PairSerializer))
    @action(detail=True, methods=["post"], url_path="fixed-table")
    def fixed_table(self, request: Request, pk: str) -> Response:
        data = s.FixedTableInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pair = pairing.pair_fixed_table_set(
            pair=self.get_object(), actor=request.user, **data.validated_data
        )
        return self._answer(pair)

    @extend_schema(responses=s.PairHistoryRowSerializer(many=True))
    @action(detail=True, methods=["get"])
    def history(self, request: Request, pk: str) -> Response:
        pair = self.get_object()
        rows = selectors.pair_history(
            pair=pair, include_drafts=drafts_visible(request.user, pair.tournament)
        )
        return Response(s.PairHistoryRowSerializer(rows, many=True).data)


class RoundViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = s.RoundDetailSerializer
    lookup_value_regex = "[0-9]+"
    permission_classes = [OrganiserWrites]

    def get_queryset(self) -> QuerySet[Round]:
        return visible_rounds(self.request.user, Round.objects.select_related("tournament"))

    def get_tournament(self) -> Tournament:
        round_: Round = self.get_object()
        return round_.tournament

    def _answer(self, round_: Round) -> Response:
        return Response(s.RoundDetailSerializer(self.get_queryset().get(pk=round_.pk)).data)

    @extend_schema(responses=s.GameSerializer(many=True))
    @action(detail=True, methods=["get"])
    def games(self, request: Request, pk: str) -> Response:
        games = selectors.pairings_for_round(round=self.get_object())
        return Response(s.GameSerializer(games, many=True).data)

    @extend_schema(request=None, responses=_write(s.RoundDetailSerializer))
    @action(detail=True, methods=["post"])
    def repair(self, request: Request, pk: str) -> Response:
        return self._answer(pairing.round_repair(round=self.get_object(), actor=request.user))

    @extend_schema(request=s.SwapInputSerializer, responses=_write(s.RoundDetailSerializer))
    @action(detail=True, methods=["post"])
    def swap(self, request: Request, pk: str) -> Response:
        data = s.SwapInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = self.get_object()
        round_ = pairing.round_swap_pairs(
            round=round_,
            actor=request.user,
            pair_a=_pair_in(round_.tournament, data.validated_data["pair_a"], "pair_a"),
            pair_b=_pair_in(round_.tournament, data.validated_data["pair_b"], "pair_b"),
            allow_rematch=data.validated_data["allow_rematch"],
        )
        return self._answer(round_)

    @extend_schema(request=None, responses=_write(s.RoundDetailSerializer))
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, pk: str) -> Response:
        return self._answer(pairing.round_publish(round=self.get_object(), actor=request.user))

    @extend_schema(request=None, responses=_write(s.RoundDetailSerializer))
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str) -> Response:
        return self._answer(pairing.round_start(round=self.get_object(), actor=request.user))

    @extend_schema(request=None, responses=_write(s.RoundDetailSerializer))
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str) -> Response:
        return self._answer(pairing.round_close(round=self.get_object(), actor=request.user))


class GameResultViewSet(viewsets.GenericViewSet):
    """The result of one game (typed in by an organiser)."""

    serializer_class = s.GameSerializer
    lookup_value_regex = "[0-9]+"
    permission_classes = [OrganiserWrites]

    def get_queryset(self) -> QuerySet[Game]:
        return Game.objects.filter(
            round__tournament__in=visible_tournaments(self.request.user)
        ).select_related("round__tournament", "pair_yb", "pair_rg")

    def get_tournament(self) -> Tournament:
        game: Game = self.get_object()
        return game.round.tournament

    def _answer(self, game: Game) -> Response:
        return Response(s.GameSerializer(self.get_queryset().get(pk=game.pk)).data)

    @extend_schema(request=s.ResultInputSerializer, responses=_write(s.GameSerializer))
    @action(detail=True, methods=["post"])
    def result(self, request: Request, pk: str) -> Response:
        data = s.ResultInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = game_result_record(
            game=self.get_object(), actor=request.user, source="typed", **data.validated_data
        )
        return self._answer(game)

    @extend_schema(request=s.ResultClearInputSerializer, responses=_write(s.GameSerializer))
    @action(detail=True, methods=["post"], url_path="result/clear")
    def result_clear(self, request: Request, pk: str) -> Response:
        data = s.ResultClearInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = game_result_clear(game=self.get_object(), actor=request.user, **data.validated_data)
        return self._answer(game)
