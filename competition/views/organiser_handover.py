"""Organiser pages of the hand-over: send the event to the venue laptop, receive it
there, send it back, import the return (docs/operations.md)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from competition.services.handover import (
    TO_VENUE,
    TO_WEBSITE,
    handover_export,
    handover_filename,
    handover_receive,
    handover_return_export,
    handover_return_import,
    handover_take_back,
)
from core.errors import ApplicationError
from core.request import read_json_file
from tournament.models import Tournament
from tournament.views.common import call_service, organiser_post


class HandOverReturnForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Hand-over file (.json)"))


class HandOverFileForm(HandOverReturnForm):
    slug = forms.SlugField(
        label=gettext_lazy("Short name here (if the website's is taken)"),
        required=False,
        max_length=80,
    )


def _download(document: dict[str, Any], filename: str) -> HttpResponse:
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=1), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


def _uploaded(
    request: HttpRequest, form_class: type[HandOverReturnForm] = HandOverReturnForm
) -> tuple[Any, Any | None]:
    form = form_class(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose the hand-over file to import."))
        return form, None
    try:
        return form, read_json_file(
            form.cleaned_data["file"], max_bytes=settings.HANDOVER_UPLOAD_MAX_BYTES, max_depth=32
        )
    except ApplicationError as error:
        messages.error(request, error.message)
        return form, None


@organiser_post
def handover_send(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        document = handover_export(tournament=tournament, actor=request.user)
    except ApplicationError as error:
        messages.error(request, error.message)
        return redirect("tournament:organiser_dashboard", slug=tournament.slug)
    return _download(document, handover_filename(tournament=tournament, direction=TO_VENUE))


@organiser_post
def handover_back(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        document = handover_return_export(tournament=tournament, actor=request.user)
    except ApplicationError as error:
        messages.error(request, error.message)
        return redirect("tournament:organiser_dashboard", slug=tournament.slug)
    return _download(document, handover_filename(tournament=tournament, direction=TO_WEBSITE))


@organiser_post
def handover_return(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    _form, document = _uploaded(request)
    if document is not None:
        call_service(
            request,
            lambda: handover_return_import(
                document=document, actor=request.user, tournament=tournament
            ),
            _("The event is back from the venue: results, move logs and rulings imported."),
        )
    return redirect("tournament:organiser_dashboard", slug=tournament.slug)


@organiser_post
def handover_take_back_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    call_service(
        request,
        lambda: handover_take_back(tournament=tournament, actor=request.user),
        _("The event was taken back: the website's version stands."),
    )
    return redirect("tournament:organiser_dashboard", slug=tournament.slug)


@login_required
@require_POST
def handover_receive_view(request: HttpRequest) -> HttpResponse:
    form, document = _uploaded(request, HandOverFileForm)
    if document is not None:
        tournament = call_service(
            request,
            lambda: handover_receive(
                document=document, actor=request.user, slug=form.cleaned_data["slug"] or None
            ),
            _("The event was imported from the website."),
        )
        if tournament is not None:
            return redirect("tournament:organiser_dashboard", slug=tournament.slug)
    return redirect("tournament:organiser_index")
