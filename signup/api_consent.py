"""Consent to publish through the API. Thin: parse, call a service or selector, answer.

Public, the token being the credential: a confirmation link (see it, answer
yes or no) and, through a sign-up's private link, withdrawing consent or
asking for a new confirmation email. Signed in: a person's consent and its
history, and recording it (staff, or an organiser of an event the person
plays in or signed up for).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api_errors import ApiErrorSerializer
from core.errors import PermissionDenied
from people.models import Person
from signup import serializers as s
from signup.models import SignUp
from signup.selectors import waitlist_position
from signup.selectors_consent import consent_coverage, consent_history, may_record_consent
from signup.services import consent as service
from signup.services.consent_links import signup_from_consent_token
from signup.services.links import signup_link

ERRORS = {
    400: OpenApiResponse(ApiErrorSerializer, description="Invalid request (bilingual error)."),
    403: OpenApiResponse(ApiErrorSerializer, description="Not allowed."),
    404: OpenApiResponse(ApiErrorSerializer, description="Link not valid, or no such person."),
    409: OpenApiResponse(ApiErrorSerializer, description="Not possible in the current state."),
}


def _own(signup: SignUp) -> dict[str, Any]:
    signup.position = waitlist_position(signup=signup)  # type: ignore[attr-defined]
    signup.link = signup_link(signup=signup)  # type: ignore[attr-defined]
    return s.SignUpOwnSerializer(signup).data


def _person(person: Person) -> dict[str, Any]:
    return {
        "id": person.pk,
        "name": person.name,
        "club": person.club,
        "publish_consent": person.publish_consent,
    }


def _link(signup: SignUp) -> dict[str, Any]:
    coverage = consent_coverage(signup=signup)
    return s.ConsentLinkSerializer(
        {
            "tournament": signup.tournament.slug,
            "display_name": signup.display_name,
            "status": signup.status,
            "consent_confirmed_at": signup.consent_confirmed_at,
            "covered": [_person(p) for p in coverage.covered],
            # Whether someone known from elsewhere is published is not this address's to see.
            "not_covered": [{**_person(p), "publish_consent": None} for p in coverage.not_covered],
        }
    ).data


class ConsentLinkView(APIView):
    """The emailed confirmation link: what it publishes, and the answer (once)."""

    @extend_schema(responses={200: s.ConsentLinkSerializer, **ERRORS})
    def get(self, request: Request, consent_token: str) -> Response:
        return Response(_link(signup_from_consent_token(token=consent_token)))

    @extend_schema(
        request=s.ConsentAnswerSerializer, responses={200: s.ConsentLinkSerializer, **ERRORS}
    )
    def post(self, request: Request, consent_token: str) -> Response:
        data = s.ConsentAnswerSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        signup = service.signup_consent_answer(token=consent_token, **data.validated_data)
        return Response(_link(signup))


class SignUpConsentWithdrawView(APIView):
    """Through the sign-up's private link: the people named on it withdraw their consent."""

    @extend_schema(request=None, responses={200: s.SignUpOwnSerializer, **ERRORS})
    def post(self, request: Request, signup_token: str) -> Response:
        return Response(_own(service.signup_consent_withdraw_by_link(token=signup_token)))


class SignUpConsentRequestView(APIView):
    """Through the sign-up's private link: email a new confirmation link."""

    @extend_schema(request=None, responses={200: s.SignUpOwnSerializer, **ERRORS})
    def post(self, request: Request, signup_token: str) -> Response:
        return Response(_own(service.signup_consent_request(token=signup_token)))


class PersonConsentView(APIView):
    """A person's consent and its history; an organiser records it with a reason."""

    def _answer(self, person: Person) -> Response:
        return Response(
            s.PersonConsentSerializer(
                {
                    "id": person.pk,
                    "name": person.name,
                    "publish_consent": person.publish_consent,
                    "consent_at": person.consent_at,
                    "history": list(consent_history(person=person)),
                }
            ).data
        )

    def _person(self, request: Request, person_id: int) -> Person:
        person = get_object_or_404(Person, pk=person_id)
        if not may_record_consent(actor=request.user, person=person):
            raise PermissionDenied(service.NOT_YOURS)
        return person

    @extend_schema(responses={200: s.PersonConsentSerializer, **ERRORS})
    def get(self, request: Request, person_id: int) -> Response:
        return self._answer(self._person(request, person_id))

    @extend_schema(
        request=s.PersonConsentInputSerializer, responses={200: s.PersonConsentSerializer, **ERRORS}
    )
    def post(self, request: Request, person_id: int) -> Response:
        person = self._person(request, person_id)
        data = s.PersonConsentInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        person = service.person_consent_record(
            person=person, actor=request.user, **data.validated_data
        )
        return self._answer(person)
