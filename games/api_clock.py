"""Clock API: read by whoever sees the game, judge-only pause / resume / extend.

Thin: the views find the game, call a service and answer with the clock
state. Errors are ``ApplicationError`` (bilingual JSON via the project's
exception handler). A game's clock is read like the game itself
(``tournament.permissions.require_round_visible``); the table device reads
its own through its token, also in an event that is not public. Writes need
a logged-in judge or organiser of the game's tournament, and CSRF (DRF
session authentication).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import NotFound
from core.request import json_object_body
from games.models import ClockEvent, Game
from games.selectors.clock import CLOCK_STATUS_LABELS, clock_state
from games.serializers_clock import (
    ClockExtendInputSerializer,
    ClockPauseInputSerializer,
    ClockStateSerializer,
)
from games.services.clock import clock_extend, clock_pause, clock_resume
from games.services.judges import JudgeAtGame
from games.services.tokens import game_from_token
from tournament.permissions import require_round_visible


def _paused_by(game: Game) -> str:
    """Who paused the clock: the full name, else the username ("" if nobody is named)."""
    clock = getattr(game, "clock", None)
    pauses = [e for e in clock.events.all() if e.kind == ClockEvent.Kind.PAUSE] if clock else []
    actor = pauses[-1].actor if pauses else None
    if actor is None:
        return ""
    return (actor.get_full_name() or "").strip() or actor.get_username()


def clock_payload(game: Game) -> dict[str, Any]:
    """The clock API's answer: the clock's state, its status in words and who paused it."""
    clock = clock_state(game=game)
    paused_by = _paused_by(game) if clock.paused else ""
    # The header says the clock is paused and by which judge.
    label = (
        _("Paused · judge %(name)s") % {"name": paused_by}
        if paused_by
        else str(CLOCK_STATUS_LABELS[clock.status])
    )
    return {**clock.to_json(), "status_label": label, "paused_by": paused_by}


def _game(game_id: int) -> Game:
    game = (
        Game.objects.select_related("round__tournament", "clock")
        .prefetch_related("clock__events__actor")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise NotFound("game_not_found", _("No such game."))
    return game


def _judge_at_game(request: Request, game_id: int) -> JudgeAtGame:
    """The game of a clock write and its judge, checked once, before any field is read."""
    return JudgeAtGame(_game(game_id), request.user)


class ClockView(APIView):
    """The clock of one game, computed from server time (whoever sees the game)."""

    @extend_schema(responses=ClockStateSerializer)
    def get(self, request: Request, game_id: int) -> Response:
        game = _game(game_id)
        require_round_visible(request.user, game.round)
        return Response(clock_payload(game), headers={"Cache-Control": "no-store"})


class TableClockView(APIView):
    """The clock of the table's own game (token in the URL, as the other table endpoints)."""

    authentication_classes: list[type] = []
    permission_classes: list[type] = []

    @extend_schema(operation_id="table_clock", responses=ClockStateSerializer, tags=["table"])
    def get(self, request: Request, token: str) -> Response:
        game = _game(game_from_token(token=token, for_write=False).pk)
        return Response(clock_payload(game), headers={"Cache-Control": "no-store"})


class ClockPauseView(APIView):
    @extend_schema(
        request=ClockPauseInputSerializer,
        responses=ClockStateSerializer,
    )
    def post(self, request: Request, game_id: int) -> Response:
        judge = _judge_at_game(request, game_id)
        pause = ClockPauseInputSerializer(data=json_object_body(request))
        pause.is_valid(raise_exception=True)
        clock_pause(judge=judge, **pause.validated_data)
        return Response(clock_payload(_game(game_id)))


class ClockResumeView(APIView):
    @extend_schema(request=None, responses=ClockStateSerializer)
    def post(self, request: Request, game_id: int) -> Response:
        clock_resume(judge=_judge_at_game(request, game_id))
        return Response(clock_payload(_game(game_id)))


class ClockExtendView(APIView):
    @extend_schema(
        request=ClockExtendInputSerializer,
        responses=ClockStateSerializer,
    )
    def post(self, request: Request, game_id: int) -> Response:
        judge = _judge_at_game(request, game_id)
        extension = ClockExtendInputSerializer(data=json_object_body(request))
        extension.is_valid(raise_exception=True)
        clock_extend(judge=judge, **extension.validated_data)
        return Response(clock_payload(_game(game_id)))
