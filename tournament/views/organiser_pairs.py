"""Organiser pages for pairs: register, import, edit, check in/out, drop."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import ApplicationError
from tournament.forms import PairEditForm, PairRegisterForm, PairsImportForm
from tournament.models import Pair, Tournament
from tournament.services.pairing import pair_fixed_table_set
from tournament.services.registration import (
    pair_check_in,
    pair_check_out,
    pair_drop,
    pair_register,
    pair_update,
    pairs_import_csv,
)
from tournament.views.common import call_service, form_error, organiser_post, organiser_required

PAIR_ACTIONS = {
    "check-in": (pair_check_in, gettext_lazy("%(pair)s is checked in.")),
    "check-out": (pair_check_out, gettext_lazy("%(pair)s is checked out.")),
    "drop": (pair_drop, gettext_lazy("%(pair)s has dropped out and will not be paired again.")),
}


def _pairs(tournament: Tournament) -> list[Pair]:
    return list(tournament.pairs.select_related("player_1", "player_2").order_by("start_number"))


@organiser_required
def pairs_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PairRegisterForm(request.POST or None, singles=tournament.is_singles)
    if request.method == "POST" and form.is_valid():
        try:
            pair = pair_register(tournament=tournament, actor=request.user, **form.cleaned_data)
        except ApplicationError as error:
            form_error(form, error)
        else:
            messages.success(request, _("%(pair)s is registered.") % {"pair": pair.display_name})
            return redirect("tournament:organiser_pairs", slug=tournament.slug)
    pairs = _pairs(tournament)
    late = tournament.rounds.exists()
    return render(
        request,
        "tournament/organiser/pairs.html",
        {
            "tournament": tournament,
            "pairs": pairs,
            "form": form,
            "late": late,
            "checked_in": sum(1 for p in pairs if p.status == Pair.Status.CHECKED_IN),
            "registered": sum(1 for p in pairs if p.status == Pair.Status.REGISTERED),
        },
    )


@organiser_required
def pairs_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PairsImportForm(
        request.POST or None, request.FILES or None, singles=tournament.is_singles
    )
    report = None
    if request.method == "POST" and form.is_valid():
        try:
            report = pairs_import_csv(
                tournament=tournament, actor=request.user, csv_text=form.cleaned_data["text"]
            )
        except ApplicationError as error:
            form_error(form, error)
        else:
            if not report.errors:
                done = (
                    _("%(n)d players were imported.")
                    if tournament.is_singles
                    else _("%(n)d pairs were imported.")
                )
                messages.success(request, done % {"n": len(report.created)})
                return redirect("tournament:organiser_pairs", slug=tournament.slug)
    return render(
        request,
        "tournament/organiser/import.html",
        {"tournament": tournament, "form": form, "report": report},
    )


@organiser_required
def pair_edit(request: HttpRequest, tournament: Tournament, pair_id: int) -> HttpResponse:
    pair = get_object_or_404(
        Pair.objects.select_related("player_1", "player_2"), tournament=tournament, pk=pair_id
    )
    form = PairEditForm.for_pair(pair, request.POST or None)
    if request.method == "POST" and form.is_valid():
        fields = dict(form.cleaned_data)
        fixed_table = fields.pop("fixed_table")
        try:
            pair_update(pair=pair, actor=request.user, **fields)
            if fixed_table != pair.fixed_table:
                pair_fixed_table_set(pair=pair, actor=request.user, table_number=fixed_table)
        except ApplicationError as error:
            form_error(form, error)
        else:
            messages.success(
                request,
                _("The player was saved.") if tournament.is_singles else _("The pair was saved."),
            )
            return redirect("tournament:organiser_pairs", slug=tournament.slug)
    return render(
        request,
        "tournament/organiser/pair_form.html",
        {"tournament": tournament, "pair": pair, "form": form},
    )


@organiser_post
def pair_action(
    request: HttpRequest, tournament: Tournament, pair_id: int, action: str
) -> HttpResponse:
    pair = get_object_or_404(
        Pair.objects.select_related("player_1", "player_2"), tournament=tournament, pk=pair_id
    )
    if action not in PAIR_ACTIONS:
        raise Http404
    service, success = PAIR_ACTIONS[action]
    call_service(
        request,
        lambda: service(pair=pair, actor=request.user),
        success % {"pair": pair.display_name},
    )
    return redirect(f"{_pairs_url(tournament)}#pair-{pair.pk}")


def _pairs_url(tournament: Tournament) -> str:
    return reverse("tournament:organiser_pairs", kwargs={"slug": tournament.slug})


@organiser_post
def pairs_check_in_all(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The desk's shortcut: check in every registered pair at once (all or none)."""
    pairs = list(tournament.pairs.filter(status=Pair.Status.REGISTERED))
    try:
        with transaction.atomic():
            for pair in pairs:
                pair_check_in(pair=pair, actor=request.user)
    except ApplicationError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(n)d pairs were checked in.") % {"n": len(pairs)})
    return redirect("tournament:organiser_pairs", slug=tournament.slug)
