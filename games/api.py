"""REST API of the move log: thin views over games.services.move_log and selectors.

The table endpoints (``/api/table/<token>/…``) authenticate by the token in
the URL only: it is not a cookie, so no session and no CSRF apply there, and
the token is checked on every request. Everything else uses the site's
session authentication (CSRF on).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone, translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.public_cache import mark_briefly_cacheable
from core.request import (
    json_object_body,
    json_object_or_none,
    query_flag,
    query_int,
)
from games import selectors
from games.conditional import state_response
from games.models import Game
from games.serializers import (
    ConfirmSerializer,
    EntryPreviewSerializer,
    EntrySubmitSerializer,
    ErrorSerializer,
    GameRecordSerializer,
    GameStateSerializer,
    HallSerializer,
    PreviewAnswerSerializer,
    SubmitAnswerSerializer,
    TakeBackSerializer,
)
from games.services import move_log
from games.services.tokens import game_for_submission, game_from_token
from tournament.models import Tournament
from tournament.permissions import require_round_visible, require_tournament_visible

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Malformed request."),
    403: OpenApiResponse(ErrorSerializer, description="Invalid table link or no permission."),
    409: OpenApiResponse(ErrorSerializer, description="Stale or finished: carries the state."),
    422: OpenApiResponse(ErrorSerializer, description="Illegal: code is the RULES.md id."),
}
NOT_MODIFIED = OpenApiResponse(
    description="Not modified: the If-None-Match tag is the state's ETag (no body)."
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="The ETag of the state the poller has: 304 while nothing it shows changed "
    "(log head, status, result, confirmations; docs/move-log.md).",
)


def _lang(request: Request, body: dict[str, Any] | None) -> str:
    """The answer's language: the body's ``lang``, else the request's (Danish default)."""
    default = "en" if (getattr(request, "LANGUAGE_CODE", None) or "da")[:2] == "en" else "da"
    lang = (body or {}).get("lang")
    return lang if lang in ("da", "en") else default


MAX_TAIL = 500


def _tail(request: Request) -> int:
    """``?tail=N``: the number of last entries wanted (0 = all, when absent)."""
    return query_int(request, "tail", minimum=1, maximum=MAX_TAIL, default=0) or 0


class TableAPIView(APIView):
    """Base of the token-authenticated table endpoints.

    A table's write answers in its body's ``lang`` (the device's language,
    which need not be the browser's): the whole request runs in it, so an
    error the project's exception handler writes (``core.api_errors``) is in
    that language too.
    """

    authentication_classes: list[type] = []
    permission_classes: list[type] = []
    _language: translation.override | None = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        body = json_object_or_none(request) if request.method == "POST" else None
        self._language = translation.override(_lang(request, body))
        self._language.__enter__()

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        # Left here, after the exception handler ran (inside dispatch), and also
        # when an error escapes it: the thread keeps no language of this request.
        try:
            return super().dispatch(request, *args, **kwargs)
        finally:
            if self._language is not None:
                self._language.__exit__(None, None, None)
                self._language = None

    def table_game(self, token: str, *, for_write: bool) -> Game:
        return game_from_token(token=token, for_write=for_write)


class TableStateView(TableAPIView):
    @extend_schema(
        operation_id="table_state",
        summary="The table's game state (board, turn, hand sizes, entries, legal moves)",
        description="Conditional: send the ETag back as If-None-Match; 304 while unchanged. "
        "The table page asks for the last 20 entries (?tail=20).",
        parameters=[
            OpenApiParameter(
                "tail",
                OpenApiTypes.INT,
                description=f"Only the last N entries (1–{MAX_TAIL}). Without it: every entry.",
            ),
            IF_NONE_MATCH,
        ],
        responses={
            200: GameStateSerializer,
            304: NOT_MODIFIED,
            400: ERRORS[400],
            403: ERRORS[403],
        },
        tags=["table"],
    )
    def get(self, request: Request, token: str) -> HttpResponse:
        tail = _tail(request)
        game = self.table_game(token, for_write=False)
        state = selectors.game_state(game=game, entries_tail=tail).with_rulings(
            selectors.table_rulings(game=game)
        )
        return state_response(request, state, legal=True, private=True, tail=tail)


class TableEntriesView(TableAPIView):
    @extend_schema(
        operation_id="table_entry_submit",
        summary="Log one entry: checked by the engine and appended atomically",
        description=(
            "201: stored, with the new state (its last 20 entries and the legal moves) and "
            "`state_etag`, the ETag of that state read with ?tail=20. 200: the same client_id "
            "was already stored "
            "(a retry); nothing changes. 409 stale_sequence: the log moved on; the error "
            "carries `state`. 422: the engine refuses it; `code` is the RULES.md id."
        ),
        request=EntrySubmitSerializer,
        responses={201: SubmitAnswerSerializer, 200: SubmitAnswerSerializer, **ERRORS},
        tags=["table"],
    )
    def post(self, request: Request, token: str) -> Response:
        body = json_object_body(request)
        game, digest = game_for_submission(token=token)
        entry = EntrySubmitSerializer(data=body)
        entry.is_valid(raise_exception=True)
        result = move_log.move_submit(
            game=game,
            text=entry.validated_data["text"],
            client_id=entry.validated_data["client_id"],
            expected_seq=entry.validated_data["expected_seq"],
            token_digest=digest,
        )
        return Response(result.to_json(), status=201 if result.created else 200)


class TablePreviewView(TableAPIView):
    @extend_schema(
        operation_id="table_entry_preview",
        summary="What an entry would do (moved pawns, hits, locks) without storing it",
        request=EntryPreviewSerializer,
        responses={200: PreviewAnswerSerializer, **ERRORS},
        tags=["table"],
    )
    def post(self, request: Request, token: str) -> Response:
        game = self.table_game(token, for_write=True)
        entry = EntryPreviewSerializer(data=json_object_body(request))
        entry.is_valid(raise_exception=True)
        preview = move_log.move_preview(game=game, text=entry.validated_data["text"])
        return Response(preview.to_json())


class TableTakeBackView(TableAPIView):
    @extend_schema(
        operation_id="table_take_back",
        summary="Take back the table's last entry (until the next entry is made)",
        request=TakeBackSerializer,
        responses={200: GameStateSerializer, **ERRORS},
        tags=["table"],
    )
    def post(self, request: Request, token: str) -> Response:
        body = json_object_body(request)
        game = self.table_game(token, for_write=True)
        entry = TakeBackSerializer(data=body)
        entry.is_valid(raise_exception=True)
        return Response(
            move_log.move_take_back(
                game=game,
                client_id=entry.validated_data["client_id"],
                seq=entry.validated_data["seq"],
            ).to_json()
        )


class TableConfirmView(TableAPIView):
    @extend_schema(
        operation_id="table_result_confirm",
        summary="One player of a pair confirms the engine's result",
        request=ConfirmSerializer,
        responses={200: GameStateSerializer, **ERRORS},
        tags=["table"],
    )
    def post(self, request: Request, token: str) -> Response:
        body = json_object_body(request)
        game = self.table_game(token, for_write=True)
        confirm = ConfirmSerializer(data=body)
        confirm.is_valid(raise_exception=True)
        return Response(
            move_log.game_result_confirm(
                game=game,
                pair_side=confirm.validated_data["pair_side"],
                client_id=confirm.validated_data["client_id"],
            ).to_json()
        )


class TableRecordView(TableAPIView):
    @extend_schema(
        operation_id="table_record_export",
        summary="The table's game as a NOTATION.md game record",
        responses={200: GameRecordSerializer, 403: ERRORS[403]},
        tags=["table"],
    )
    def get(self, request: Request, token: str) -> Response:
        game = self.table_game(token, for_write=False)
        return Response(selectors.game_record_export(game=game))


def _public_game(request: Request, game_id: int, *, players: bool = True) -> Game:
    # The state needs no players: spectators poll it every 3 s, and joining
    # four players and two pairs costs more than everything else it reads.
    related = ("pair_yb__player_1", "pair_yb__player_2", "pair_rg__player_1", "pair_rg__player_2")
    game = get_object_or_404(
        Game.objects.select_related("round__tournament", *(related if players else ())),
        pk=game_id,
    )
    require_round_visible(request.user, game.round)
    return game


class GameStateView(APIView):
    @extend_schema(
        operation_id="game_state",
        summary="Public read-only state of a game (live view)",
        description="Without the legal moves (legal_entries and legal_effects are null) "
        "unless ?legal=1. Conditional: send the ETag back as If-None-Match; 304 while "
        "unchanged.",
        parameters=[
            OpenApiParameter(
                "legal",
                OpenApiTypes.INT,
                enum=[0, 1],
                description="1: include the legal moves of the seat to move.",
            ),
            OpenApiParameter(
                "tail",
                OpenApiTypes.INT,
                description=f"Only the last N entries (1–{MAX_TAIL}); the live view asks for "
                f"{selectors.LIVE_TAIL}. Without it: every entry.",
            ),
            IF_NONE_MATCH,
        ],
        responses={200: GameStateSerializer, 304: NOT_MODIFIED, 400: ERRORS[400]},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> HttpResponse:
        game = _public_game(request, game_id, players=False)
        legal = query_flag(request, "legal")
        tail = _tail(request)
        state = selectors.game_state(game=game, with_legal=legal, entries_tail=tail)
        return state_response(request, state, legal=legal, private=False, tail=tail)


class GameRecordView(APIView):
    @extend_schema(
        operation_id="game_record_export",
        summary="Export the game as a NOTATION.md game record",
        responses={200: GameRecordSerializer},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = _public_game(request, game_id)
        response = Response(selectors.game_record_export(game=game))
        filename = f"{game.round.tournament.slug}-r{game.round.number}-t{game.table_number}.json"
        response["Content-Disposition"] = f'inline; filename="{filename}"'
        return response

    @extend_schema(
        operation_id="game_record_import",
        summary="Import a game played on paper (judge or organiser); checked by the engine",
        description="422 names the first illegal entry (`index` from 0, `move`, `code` = rule).",
        request=GameRecordSerializer,
        responses={201: GameStateSerializer, **ERRORS},
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = _public_game(request, game_id)
        record = json_object_body(request)
        return Response(
            move_log.game_record_import(game=game, actor=request.user, record=record).to_json(),
            status=201,
        )


class HallView(APIView):
    @extend_schema(
        operation_id="tournament_hall",
        summary="Every table of the current round: teams, progress, locked pawns, clock",
        description="Shared for up to 2 s (HALL_CACHE_SECONDS): `server_time` says when "
        "this answer was made, each clock's `server_time` when it was read, and the "
        "X-Server-Time header (epoch seconds) when the answer was sent, also from a "
        "cached copy. A display counts a running clock on from its `server_time`.",
        responses={200: HallSerializer},
        tags=["games"],
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = get_object_or_404(Tournament, slug=slug)
        require_tournament_visible(request.user, tournament)
        round_ = selectors.hall_round(tournament=tournament)
        tables = selectors.hall_tables(round_=round_) if round_ else []
        now = timezone.now()
        response = Response(
            {
                "round": round_.number if round_ else None,
                "server_time": now.isoformat(),
                "tables": [table.to_json() for table in tables],
            },
            headers={"Cache-Control": "no-cache"},
        )
        return mark_briefly_cacheable(
            request,
            response,
            published=tournament.published,
            seconds=selectors.HALL_CACHE_SECONDS,
            now=now,
        )


__all__ = [
    "GameRecordView",
    "GameStateView",
    "HallView",
    "TableConfirmView",
    "TableEntriesView",
    "TablePreviewView",
    "TableRecordView",
    "TableStateView",
    "TableTakeBackView",
]
