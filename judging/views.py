"""Judge pages: thin views over the judging selectors."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie

from judging.selectors import judge_dashboard
from tournament.errors import PermissionDenied
from tournament.models import Tournament
from tournament.permissions import is_judge


def _texts() -> dict[str, str]:
    """Words the dashboard script writes, in the active language."""
    return {
        "yb": _("Yellow/Blue"),
        "rg": _("Red/Green"),
        "table": _("Table"),
        "elapsed": _("Played"),
        "remaining": _("Left"),
        "moves": _("Moves"),
        "progress": _("Progress"),
        "on_my_way": _("On my way"),
        "acknowledged_by": _("On the way: %(name)s at %(time)s"),
        "pause": _("Pause"),
        "resume": _("Resume"),
        "extend": _("Extend"),
        "minutes": _("Minutes"),
        "reason": _("Reason"),
        "reason_required": _("Give a reason for the extra time."),
        "no_tables": _("No tables in this round yet."),
        "no_alerts": _("No open alerts."),
        "offline": _("No connection — retrying…"),
        "rank": _("Priority %(rank)s"),
        "stuck": _("No progress: likely stuck"),
        "overrun": _("Predicted overrun: %(minutes)s min"),
        "on_time": _("Predicted to finish in time"),
        "unknown": _("No move log: no prediction"),
        "sound_on": _("Sound on"),
        "extended": _("+%(minutes)s min: %(reason)s"),
    }


@ensure_csrf_cookie
def judge_dashboard_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not is_judge(request.user, tournament):
        error = PermissionDenied(
            "Only a judge or organiser of this tournament may open the judge dashboard.",
            "Kun en dommer eller arrangør af denne turnering må åbne dommeroversigten.",
        )
        return render(request, "tournament/forbidden.html", {"error": error}, status=403)
    config = {
        "dashboard_url": reverse("api:judge-dashboard", args=[slug]),
        "ack_url": reverse("api:alert-acknowledge", args=[0]),
        "clock_url": reverse("api:game-clock", args=[0]),
        "texts": _texts(),
    }
    return render(
        request,
        "judging/dashboard.html",
        {
            "tournament": tournament,
            "config": config,
            "initial": judge_dashboard(tournament=tournament),
        },
    )
