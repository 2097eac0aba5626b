"""What every tournament page shares: the organiser gate and service calls.

Views stay thin: they parse a form, call one service and turn an
``ApplicationError`` into a message in the active language. Services are
atomic, so a refused call has changed nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from core.errors import ApplicationError, PermissionDenied
from tournament.models import Tournament
from tournament.permissions import is_organiser

ViewFunc = Callable[..., HttpResponse]


def forbidden(request: HttpRequest, error: ApplicationError) -> HttpResponse:
    """A 403 page that says why, in Danish and English."""
    return render(request, "tournament/forbidden.html", {"error": error}, status=403)


def organiser_required(view: ViewFunc) -> ViewFunc:
    """Login, then organiser of *this* tournament (from ``slug``), else 403.

    The view receives the tournament instead of the slug.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        tournament = get_object_or_404(Tournament, slug=slug)
        if not is_organiser(request.user, tournament):
            return forbidden(
                request,
                PermissionDenied(
                    _("Only an organiser of this tournament may open this page."),
                ),
            )
        return view(request, tournament, *args, **kwargs)

    return wrapper


def organiser_post(view: ViewFunc) -> ViewFunc:
    """An organiser-only action that only answers POST (CSRF-checked by the middleware)."""
    return organiser_required(require_POST(view))


def call_service(request: HttpRequest, action: Callable[[], Any], success: str) -> Any | None:
    """Run a service call; report success or the service's refusal as a message.

    Returns the service's result, or ``None`` when it was refused.
    """
    try:
        result = action()
    except ApplicationError as error:
        messages.error(request, error.message)
        return None
    messages.success(request, success)
    return result if result is not None else True


def form_error(form: Any, error: ApplicationError) -> None:
    """Show a service refusal on the form it came from (non-field error)."""
    form.add_error(None, error.message)
