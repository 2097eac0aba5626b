"""Judging API: the dashboard JSON (polled every second) and acknowledging alerts."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.conditional import conditional_response
from core.errors import NotFound
from core.request import json_object_body, query_int, query_text
from games.models import MAX_ENTRY_NUMBER, Game
from games.services.judges import JudgeAtEvent
from games.services.tokens import game_from_token
from judging import answers
from judging.models import JudgeCall
from judging.selectors_polling import (
    PollAnswer,
    calls_open_answer,
    judge_dashboard_answer,
    table_judge_answer,
)
from judging.selectors_review import (
    call_json,
    game_review,
    game_rulings,
    incidents_for_pairs,
    ruling_json,
    rulings_search,
    table_judge_status,
)
from judging.selectors_timeout import timeout_proposal
from judging.serializers import (
    MAX_ID,
    RULE_ID_LENGTH,
    RULING_REQUESTS,
    SEARCH_LENGTH,
    AlertsAcknowledgeInputSerializer,
    RulingInputSerializer,
    RulingUndoInputSerializer,
    TableCallInputSerializer,
    VoidCheckInputSerializer,
)
from judging.services.alerts import alert_acknowledge, alerts_acknowledge
from judging.services.calls import (
    judge_call_close,
    judge_call_create,
    judge_call_find,
    judge_call_take,
)
from judging.services.ruling_undo import ruling_find, ruling_undo
from judging.services.rulings import JudgeAtTable, ruling_make, void_preview
from tournament.models import Tournament
from tournament.permissions import require_judge

_IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="The ETag of the answer the poller has; 304 without a body if it still holds.",
)
_NOT_MODIFIED = OpenApiResponse(description="Not modified: the poller's copy still holds.")


def poll_response(
    request: Request, answer: PollAnswer, *, server_time: bool = False
) -> HttpResponse:
    """200 with the answer, or 304 when the poller's ``If-None-Match`` names it.

    ``X-Server-Time`` (with ``server_time``) is the server's time now: an
    answer may be a shared copy up to a second old, and a 304 has no body, so
    a display counts its clocks on from its copy's ``server_time`` to this
    (epoch seconds, as the hall API's).
    """
    response = conditional_response(
        request,
        etag=answer.etag,
        headers={"Cache-Control": "no-store"},
        answer=lambda: HttpResponse(answer.body, content_type="application/json"),
    )
    if server_time:
        response["X-Server-Time"] = f"{timezone.now().timestamp():.3f}"
    return response


class JudgeDashboardView(APIView):
    """Every table of the current round, most urgent first (judges and organisers).

    Shared by all judges of the event for up to a second and renewed at once
    when an alert, call, clock action or ruling changes something; conditional
    with ``If-None-Match``.
    """

    @extend_schema(
        parameters=[_IF_NONE_MATCH],
        responses={
            200: answers.DashboardAnswer,
            304: _NOT_MODIFIED,
        },
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise NotFound("tournament_not_found", _("No such tournament."))
        require_judge(request.user, tournament)
        answer = judge_dashboard_answer(tournament=tournament)
        return poll_response(request, answer, server_time=True)


class AlertAcknowledgeView(APIView):
    """A judge is on the way; everyone sees who. Repeating it changes nothing."""

    @extend_schema(request=None, responses=answers.AlertAckAnswer)
    def post(self, request: Request, alert_id: int) -> Response:
        alert = alert_acknowledge(alert_id=alert_id, actor=request.user)
        return Response(
            {
                "id": alert.pk,
                "acknowledged_by": alert.acknowledged_by.get_username()
                if alert.acknowledged_by
                else "",
                "acknowledged_at": alert.acknowledged_at.isoformat()
                if alert.acknowledged_at
                else None,
            }
        )


class AlertsAcknowledgeView(APIView):
    """Acknowledge several alerts at once: ``{"ids": [...]}`` (judges of the event)."""

    @extend_schema(
        request=AlertsAcknowledgeInputSerializer,
        responses=answers.AlertsAckAnswer,
    )
    def post(self, request: Request, slug: str) -> Response:
        body = json_object_body(request)
        tournament = _tournament(request, slug)
        alerts = AlertsAcknowledgeInputSerializer(data=body)
        alerts.is_valid(raise_exception=True)
        changed = alerts_acknowledge(
            tournament=tournament, actor=request.user, **alerts.validated_data
        )
        return Response({"acknowledged": changed})


# --- calls, review, rulings ------------------------------------------------------


def _game(game_id: int) -> Game:
    game = (
        Game.objects.select_related("round__tournament", "pair_yb", "pair_rg")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise NotFound("game_not_found", _("No such game."))
    return game


def _staff_game(request: Request, game_id: int) -> Game:
    game = _game(game_id)
    require_judge(request.user, game.round.tournament)
    return game


def _judge_at_table(request: Request, game_id: int) -> JudgeAtTable:
    """The game and its judge, checked once, before any field is read."""
    return JudgeAtTable(_game(game_id), request.user)


def _tournament(request: Request, slug: str) -> Tournament:
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise NotFound("tournament_not_found", _("No such tournament."))
    require_judge(request.user, tournament)
    return tournament


class TableJudgeView(APIView):
    """The table's judge status (open call, who is coming, rulings); POST calls a judge.

    Authenticated by the table token in the URL only (no session, no CSRF):
    a table can call but never rule.
    """

    authentication_classes: list[type] = []
    permission_classes: list[type] = []

    @extend_schema(
        operation_id="table_judge_status",
        parameters=[_IF_NONE_MATCH],
        responses={200: answers.TableJudgeAnswer, 304: _NOT_MODIFIED},
        tags=["table"],
    )
    def get(self, request: Request, token: str) -> HttpResponse:
        game = game_from_token(token=token, for_write=False)
        return poll_response(request, table_judge_answer(game=game))

    @extend_schema(
        operation_id="table_judge_call",
        request=TableCallInputSerializer,
        responses={201: answers.TableJudgeAnswer},
        tags=["table"],
    )
    def post(self, request: Request, token: str) -> Response:
        body = json_object_body(request)
        game = game_from_token(token=token, for_write=True)
        call = TableCallInputSerializer(data=body)
        call.is_valid(raise_exception=True)
        judge_call_create(game=game, **call.validated_data)
        return Response(table_judge_status(game=game), status=201)


class CallsView(APIView):
    """Open judge calls of the event, oldest first (judges and organisers)."""

    @extend_schema(
        parameters=[_IF_NONE_MATCH],
        responses={200: answers.CallsAnswer, 304: _NOT_MODIFIED},
        tags=["judging"],
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = _tournament(request, slug)
        return poll_response(request, calls_open_answer(tournament=tournament))


def _call_and_judge(request: Request, call_id: int) -> tuple[JudgeCall, JudgeAtEvent]:
    """The call and a judge of its event, checked once (a 404 for no such call first)."""
    call = judge_call_find(call_id)
    return call, JudgeAtEvent(call.tournament, request.user)


class CallTakeView(APIView):
    @extend_schema(request=None, responses=answers.CallAnswer, tags=["judging"])
    def post(self, request: Request, call_id: int) -> Response:
        call, judge = _call_and_judge(request, call_id)
        return Response(call_json(judge_call_take(call=call, judge=judge)))


class CallCloseView(APIView):
    @extend_schema(request=None, responses=answers.CallClosedAnswer, tags=["judging"])
    def post(self, request: Request, call_id: int) -> Response:
        call, judge = _call_and_judge(request, call_id)
        closing = judge_call_close(call=call, judge=judge)
        return Response({**call_json(closing.call), "closing": closing.to_json()})


class GameReviewView(APIView):
    """The replay viewer's data at entry ``?at=n`` (default: the last entry)."""

    @extend_schema(
        parameters=[
            OpenApiParameter("at", OpenApiTypes.INT, description="The entry (0: before the first).")
        ],
        responses=answers.ReviewAnswer,
        tags=["judging"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = _staff_game(request, game_id)
        at = query_int(request, "at", minimum=0, maximum=MAX_ENTRY_NUMBER)
        return Response(game_review(game=game, at=at))


class GameRulingsView(APIView):
    """A game's rulings; POST makes one: ``{"kind": "uphold"|"void"|…, …, "reason"}``.

    With ``"call"`` the ruling answers that judge call and closes it (the clock
    the call paused runs again) unless ``"keep_call_open": true``;
    ``call_closing`` says what happened (``clock``, ``message_en``/``_da``).
    """

    @extend_schema(responses=answers.RulingsAnswer, tags=["judging"])
    def get(self, request: Request, game_id: int) -> Response:
        game = _staff_game(request, game_id)
        return Response({"rulings": game_rulings(game=game)})

    @extend_schema(
        request=PolymorphicProxySerializer(
            component_name="RulingInput",
            serializers=RULING_REQUESTS,
            resource_type_field_name="kind",
        ),
        responses={201: answers.RulingMadeAnswer},
        tags=["judging"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = json_object_body(request)
        table = _judge_at_table(request, game_id)
        ruling = RulingInputSerializer(data=body, context={"ruleset": table.ruleset})
        ruling.is_valid(raise_exception=True)
        outcome = ruling_make(table=table, request=ruling.ruling)
        call = outcome.call.to_json() if outcome.call is not None else None
        return Response({**ruling_json(outcome.ruling), "call_closing": call}, status=201)


class VoidCheckView(APIView):
    """Which later entries become illegal if ``seq`` (and ``also``) are voided."""

    @extend_schema(
        request=VoidCheckInputSerializer, responses=answers.VoidCheckAnswer, tags=["judging"]
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = json_object_body(request)
        table = _judge_at_table(request, game_id)
        check = VoidCheckInputSerializer(data=body)
        check.is_valid(raise_exception=True)
        effects = void_preview(table=table, **check.validated_data)
        return Response({"affected": effects})


class AdjudicationView(APIView):
    """The engine's W3 proposal for a game stopped at the time limit, and its ``source``."""

    @extend_schema(responses=answers.AdjudicationAnswer, tags=["judging"])
    def get(self, request: Request, game_id: int) -> Response:
        game = _staff_game(request, game_id)
        return Response(timeout_proposal(game=game).to_json())


class RulingsSearchView(APIView):
    """All rulings of the event by rule id (``?rule=P2``) and text (``?q=…``)."""

    @extend_schema(
        parameters=[
            OpenApiParameter("rule", OpenApiTypes.STR, description="A RULES.md id."),
            OpenApiParameter("q", OpenApiTypes.STR, description="Words of the reason."),
        ],
        responses=answers.RulingsAnswer,
        tags=["judging"],
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        rulings = rulings_search(
            tournament=tournament,
            q=query_text(request, "q", max_length=SEARCH_LENGTH),
            rule=query_text(request, "rule", max_length=RULE_ID_LENGTH),
        )
        return Response({"rulings": [ruling_json(r) for r in rulings]})


class IncidentsView(APIView):
    """Incident history per pair (``?pair=<id>`` for one pair)."""

    @extend_schema(
        parameters=[OpenApiParameter("pair", OpenApiTypes.INT, description="One pair's id.")],
        responses=answers.IncidentsAnswer,
        tags=["judging"],
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        pairs = tournament.pairs.select_related("player_1", "player_2").order_by("start_number")
        pair = query_int(request, "pair", minimum=1, maximum=MAX_ID)
        if pair is not None:
            pairs = pairs.filter(pk=pair)
        return Response({"pairs": incidents_for_pairs(tournament=tournament, pairs=list(pairs))})


class RulingUndoView(APIView):
    """Undo a ruling (RULES.md J2) with a reason: ``{"reason"}``; answers the undo ruling.

    Judges and organisers of the ruling's tournament only (session + CSRF).
    The undo is a judge entry of its own (``! UNDO n``) in the game's log.
    """

    @extend_schema(
        request=RulingUndoInputSerializer,
        responses={201: answers.RulingAnswer},
        tags=["judging"],
    )
    def post(self, request: Request, ruling_id: int) -> Response:
        body = json_object_body(request)
        # Only a judge of the event learns whether the reason would do.
        judge = JudgeAtEvent(ruling_find(ruling_id).game.round.tournament, request.user)
        undo_input = RulingUndoInputSerializer(data=body)
        undo_input.is_valid(raise_exception=True)
        undo = ruling_undo(ruling_id=ruling_id, judge=judge, **undo_input.validated_data)
        return Response(ruling_json(undo), status=201)
