"""Sign-up API. Thin: parse, call a service or selector, answer.

Public: the sign-up state and signing up (rate-limited per client), and a
pair's own sign-up through its private link. Organisers of the tournament:
the list with contact emails, approve, reject, withdraw, a new link, and
filling free places from the waitlist.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api_errors import ApiErrorSerializer
from signup import serializers as s
from signup.models import SignUp
from signup.selectors import signup_state, signups_for_organiser, waitlist_position
from signup.services import signups as service
from signup.services.links import signup_from_token, signup_link
from signup.spam import signup_attempt_allow
from tournament.models import Tournament
from tournament.permissions import require_organiser, tournament_visible

ERRORS = {
    400: OpenApiResponse(ApiErrorSerializer, description="Invalid request (bilingual error)."),
    403: OpenApiResponse(ApiErrorSerializer, description="Not an organiser of this tournament."),
    409: OpenApiResponse(ApiErrorSerializer, description="Not possible in the current state."),
}


def _tournament(request: Request, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    # An unpublished event's form is previewed by its own organisers and judges.
    if not tournament_visible(request.user, tournament):
        raise Http404
    return tournament


def _own(signup: SignUp) -> dict[str, Any]:
    signup.position = waitlist_position(signup=signup)  # type: ignore[attr-defined]
    signup.link = signup_link(signup=signup)  # type: ignore[attr-defined]
    return s.SignUpOwnSerializer(signup).data


def _state(tournament: Tournament) -> dict[str, Any]:
    state = signup_state(tournament=tournament)
    return s.SignUpStateSerializer(
        {
            **{k: getattr(state, k) for k in ("enabled", "open", "started", "closes_at")},
            **{k: getattr(state, k) for k in ("capacity", "taken", "free", "waitlist")},
            "approval": state.approval,
            "pairs": [
                {"start_number": p.start_number, "display_name": p.display_name, "club": p.club}
                for p in state.pairs
            ],
        }
    ).data


class SignUpPublicView(APIView):
    """A tournament's online sign-up: its state, and signing up."""

    @extend_schema(responses=s.SignUpStateSerializer)
    def get(self, request: Request, slug: str) -> Response:
        return Response(_state(_tournament(request, slug)))

    @extend_schema(
        request=s.SignUpInputSerializer,
        responses={
            201: s.SignUpOwnSerializer,
            **ERRORS,
            429: OpenApiResponse(ApiErrorSerializer, description="Too many sign-ups from here."),
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = _tournament(request, slug)
        signup_attempt_allow(request=request)
        data = s.SignUpInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        signup = service.signup_submit(tournament=tournament, **data.validated_data)
        return Response(_own(signup), status=status.HTTP_201_CREATED)


class SignUpOwnView(APIView):
    """A pair's own sign-up, through its private link (the token is the credential)."""

    @extend_schema(responses=s.SignUpOwnSerializer)
    def get(self, request: Request, signup_token: str) -> Response:
        return Response(_own(signup_from_token(token=signup_token)))


class SignUpWithdrawView(APIView):
    @extend_schema(request=None, responses={200: s.SignUpOwnSerializer, **ERRORS})
    def post(self, request: Request, signup_token: str) -> Response:
        return Response(_own(service.signup_withdraw_by_link(token=signup_token)))


class SignUpListView(APIView):
    """Every sign-up of the tournament with its contact email (organisers only)."""

    @extend_schema(responses={200: s.SignUpSerializer(many=True), **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        tournament = get_object_or_404(Tournament, slug=slug)
        require_organiser(request.user, tournament)
        signups = signups_for_organiser(tournament=tournament)
        return Response(s.SignUpSerializer(signups, many=True).data)


class SignUpAdvanceView(APIView):
    """Fill free places from the waitlist now (the worker does it within a minute)."""

    @extend_schema(request=None, responses={200: s.SignUpSerializer(many=True), **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        tournament = get_object_or_404(Tournament, slug=slug)
        moved = service.signup_waitlist_advance(tournament=tournament, actor=request.user)
        return Response(s.SignUpSerializer(moved, many=True).data)


class _SignUpAction(APIView):
    def signup(self, request: Request, signup_id: int) -> SignUp:
        signup = get_object_or_404(SignUp.objects.select_related("tournament"), pk=signup_id)
        require_organiser(request.user, signup.tournament)
        return signup

    def answer(self, signup: SignUp) -> Response:
        signup.refresh_from_db()
        signup.position = waitlist_position(signup=signup)  # type: ignore[attr-defined]
        return Response(s.SignUpSerializer(signup).data)


class SignUpApproveView(_SignUpAction):
    @extend_schema(request=None, responses={200: s.SignUpSerializer, **ERRORS})
    def post(self, request: Request, signup_id: int) -> Response:
        signup = service.signup_approve(signup=self.signup(request, signup_id), actor=request.user)
        return self.answer(signup)


class SignUpRejectView(_SignUpAction):
    @extend_schema(request=s.RejectInputSerializer, responses={200: s.SignUpSerializer, **ERRORS})
    def post(self, request: Request, signup_id: int) -> Response:
        signup = self.signup(request, signup_id)
        data = s.RejectInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        signup = service.signup_reject(signup=signup, actor=request.user, **data.validated_data)
        return self.answer(signup)


class SignUpOrganiserWithdrawView(_SignUpAction):
    @extend_schema(request=None, responses={200: s.SignUpSerializer, **ERRORS})
    def post(self, request: Request, signup_id: int) -> Response:
        signup = service.signup_withdraw(signup=self.signup(request, signup_id), actor=request.user)
        return self.answer(signup)


class SignUpLinkView(_SignUpAction):
    """A new private link, emailed to the pair; the old one stops working."""

    @extend_schema(request=None, responses={200: s.SignUpSerializer, **ERRORS})
    def post(self, request: Request, signup_id: int) -> Response:
        signup = service.signup_link_renew(
            signup=self.signup(request, signup_id), actor=request.user
        )
        return self.answer(signup)
