"""Judging API: the dashboard JSON (polled every second) and acknowledging alerts."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from judging.selectors import judge_dashboard
from judging.services.alerts import alert_acknowledge
from tournament.errors import NotFound
from tournament.models import Tournament
from tournament.permissions import require_judge


class JudgeDashboardView(APIView):
    """Every table of the current round, most urgent first (judges and organisers)."""

    @extend_schema(
        responses=inline_serializer("JudgeDashboard", {"tables": serializers.ListField()})
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise NotFound(
                "tournament_not_found", "No such tournament.", "Turneringen findes ikke."
            )
        require_judge(request.user, tournament)
        return Response(
            judge_dashboard(tournament=tournament), headers={"Cache-Control": "no-store"}
        )


class AlertAcknowledgeView(APIView):
    """A judge is on the way; everyone sees who. Repeating it changes nothing."""

    @extend_schema(
        request=None, responses=inline_serializer("AlertAck", {"id": serializers.IntegerField()})
    )
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
