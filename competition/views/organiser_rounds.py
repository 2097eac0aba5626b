"""Organiser pages for rounds: pair, preview, swap, publish, start, close,
results and the knockout bracket."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition import selectors
from competition.forms import (
    KnockoutCutForm,
    ResultClearForm,
    ResultForm,
    RoundPairForm,
    SwapForm,
)
from competition.selectors_knockout import knockout_cut, knockout_readiness, knockout_standings
from competition.selectors_stream import stream_game_id
from competition.services.knockout import knockout_advance, knockout_create
from competition.services.pairing import (
    round_close,
    round_pair,
    round_publish,
    round_repair,
    round_start,
    round_swap_pairs,
)
from core.errors import ApplicationError
from games.models import Game
from games.services.results import game_result_clear, game_result_record
from tournament.models import Pair, Round, Tournament
from tournament.views.common import call_service, form_error, organiser_post, organiser_required

ROUND_ACTIONS = {
    "publish": (round_publish, gettext_lazy("Round %(n)d is published.")),
    "start": (round_start, gettext_lazy("Round %(n)d has started.")),
    "close": (round_close, gettext_lazy("Round %(n)d is closed.")),
    "repair": (round_repair, gettext_lazy("Round %(n)d was paired again.")),
}


def bilingual(entry: Any) -> str:
    """A bilingual dict from a service ({"en", "da"} or message_en/_da) in the active language."""
    if isinstance(entry, str):
        return entry
    lang = "en" if (translation.get_language() or "da").startswith("en") else "da"
    return str(entry.get(lang) or entry.get(f"message_{lang}") or entry.get("en") or "")


def _round_url(round_: Round) -> str:
    return reverse(
        "tournament:organiser_round",
        kwargs={"slug": round_.tournament.slug, "number": round_.number},
    )


def _get_round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


@organiser_post
def round_pair_next(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = RoundPairForm(request.POST)
    method = form.cleaned_data["method"] if form.is_valid() else "auto"
    round_ = call_service(
        request,
        lambda: round_pair(tournament=tournament, actor=request.user, method=method),
        _("The next round is paired as a draft. Check it, then publish it."),
    )
    if isinstance(round_, Round):
        return redirect(_round_url(round_))
    return redirect("tournament:organiser_dashboard", slug=tournament.slug)


@organiser_required
def round_detail(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = _get_round(tournament, number)
    games = selectors.pairings_for_round(round=round_)
    byes = selectors.byes_for_round(round=round_)
    explanation = round_.explanation or {}
    rows = [
        {
            "game": game,
            "explanation": bilingual(
                explanation.get(str(game.table_number)) or explanation.get(game.table_number) or ""
            ),
            "form": ResultForm.for_game(game, variant=tournament.variant),
        }
        for game in games
    ]
    pair_ids = [g.pair_yb_id for g in games] + [g.pair_rg_id for g in games]
    pair_ids += [getattr(b, "pair_id", None) or b.pair.pk for b in byes]
    swap_pairs = Pair.objects.filter(pk__in=pair_ids).select_related("player_1", "player_2")
    return render(
        request,
        "tournament/organiser/round.html",
        {
            "tournament": tournament,
            "round": round_,
            "rows": rows,
            "byes": byes,
            "warnings": [bilingual(w) for w in round_.warnings or []],
            "swap_form": SwapForm(pairs=swap_pairs),
            "editable": round_.status in (Round.Status.DRAFT, Round.Status.PUBLISHED),
            "results_open": round_.status != Round.Status.DRAFT,
            "missing": sum(1 for g in games if not g.winner),
            "stream_game_id": stream_game_id(tournament=tournament),
        },
    )


@organiser_post
def round_action(
    request: HttpRequest, tournament: Tournament, number: int, action: str
) -> HttpResponse:
    round_ = _get_round(tournament, number)
    if action not in ROUND_ACTIONS:
        raise Http404
    service, success = ROUND_ACTIONS[action]
    call_service(
        request, lambda: service(round=round_, actor=request.user), success % {"n": number}
    )
    return redirect(_round_url(round_))


@organiser_post
def round_swap(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = _get_round(tournament, number)
    form = SwapForm(request.POST, pairs=tournament.pairs.all())
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return redirect(_round_url(round_))
    call_service(
        request,
        lambda: round_swap_pairs(
            round=round_,
            actor=request.user,
            pair_a=form.cleaned_data["pair_a"],
            pair_b=form.cleaned_data["pair_b"],
            allow_rematch=form.cleaned_data["allow_rematch"],
        ),
        _("The two pairs were swapped."),
    )
    return redirect(_round_url(round_))


def get_game(tournament: Tournament, game_id: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related(
            "round__tournament",
            "pair_yb__player_1",
            "pair_yb__player_2",
            "pair_rg__player_1",
            "pair_rg__player_2",
        ),
        round__tournament=tournament,
        pk=game_id,
    )


@organiser_required
def game_result(request: HttpRequest, tournament: Tournament, game_id: int) -> HttpResponse:
    """Enter or correct one game's result (also the phone-sized page for one table)."""
    game = get_game(tournament, game_id)
    form = ResultForm.for_game(game, request.POST or None, variant=tournament.variant)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game_result_record(
                game=game,
                actor=request.user,
                winner=data["winner"],
                locked_yb=data["locked_yb"],
                locked_rg=data["locked_rg"],
                distance_yb=data["distance_yb"],
                distance_rg=data["distance_rg"],
                timed_out=data["timed_out"],
                source="typed",
                note=data["note"],
                override_reason=data["override_reason"],
            )
        except ApplicationError as error:
            form_error(form, error)
        else:
            messages.success(
                request, _("Table %(table)d: the result was saved.") % {"table": game.table_number}
            )
            return redirect(f"{_round_url(game.round)}#table-{game.table_number}")
    return render(
        request,
        "tournament/organiser/result_form.html",
        {
            "tournament": tournament,
            "game": game,
            "form": form,
            "clear_form": ResultClearForm(),
        },
        status=400 if request.method == "POST" else 200,
    )


@organiser_post
def game_result_delete(request: HttpRequest, tournament: Tournament, game_id: int) -> HttpResponse:
    game = get_game(tournament, game_id)
    form = ResultClearForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason for removing the result."))
        return redirect("tournament:organiser_game_result", slug=tournament.slug, game_id=game.pk)
    call_service(
        request,
        lambda: game_result_clear(
            game=game, actor=request.user, reason=form.cleaned_data["reason"]
        ),
        _("Table %(table)d: the result was removed.") % {"table": game.table_number},
    )
    return redirect(f"{_round_url(game.round)}#table-{game.table_number}")


@organiser_required
def knockout_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Who goes through to the knockout; a cut inside a shared rank with its choices."""
    if not tournament.knockout_size:
        messages.error(
            request, _("This tournament has no knockout stage (set the knockout size first).")
        )
        return redirect("tournament:organiser_dashboard", slug=tournament.slug)
    rows = knockout_standings(tournament=tournament)
    tie = knockout_cut(tournament=tournament, rows=rows)
    tied = {p.pk for p in tie.pairs} if tie else set()
    shown = [r for k, r in enumerate(rows) if k < tournament.knockout_size or r.pair_id in tied]
    options = list(tie.options.values()) if tie else []
    return render(
        request,
        "tournament/organiser/knockout.html",
        {
            "tournament": tournament,
            "rows": shown,
            "tied": tied,
            "tie": tie,
            "options": [_option_view(o) for o in options],
            "default_cut": next((o.key for o in options if o.available), ""),
            "form": KnockoutCutForm(),
            "has_knockout": tournament.rounds.filter(kind=Round.Kind.KNOCKOUT).exists(),
            **knockout_cut_context(tournament),
        },
    )


def knockout_cut_context(tournament: Tournament) -> dict[str, Any]:
    """Whether the cut is due, and the early cut's choice in words, for the pages."""
    readiness = knockout_readiness(tournament=tournament)
    return {
        "cut_ready": readiness,
        "early_cut_text": bilingual({"en": readiness.early_en, "da": readiness.early_da}),
    }


def _option_view(option: Any) -> dict[str, Any]:
    return {"key": option.key, "available": option.available,
            "note": bilingual({"en": option.note_en, "da": option.note_da})}  # fmt: skip


@organiser_post
def knockout_start(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = KnockoutCutForm(request.POST)
    source, cut, early = "standings", "", False
    if form.is_valid():
        source, cut = form.cleaned_data["source"], form.cleaned_data["cut"]
        early = form.cleaned_data["early"]
    try:
        round_ = knockout_create(
            tournament=tournament, actor=request.user, source=source, cut=cut, early=early
        )
    except ApplicationError as error:
        messages.error(request, error.message)
        if error.code == "knockout_cut_tie":
            return redirect("tournament:organiser_knockout", slug=tournament.slug)
        return redirect("tournament:organiser_dashboard", slug=tournament.slug)
    if round_.kind == Round.Kind.PLAYOFF:
        messages.success(
            request,
            _("The playoff round was made as a draft: publish it and play it, then make the "
              "bracket; its winners go through."),
        )  # fmt: skip
    else:
        messages.success(
            request, _("The knockout bracket was made as a draft round. Check it, then publish it.")
        )
    return redirect(_round_url(round_))


@organiser_post
def knockout_next(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        round_ = knockout_advance(tournament=tournament, actor=request.user)
    except ApplicationError as error:
        messages.error(request, error.message)
        return redirect("tournament:organiser_dashboard", slug=tournament.slug)
    if round_ is None:
        messages.success(request, _("The final is decided: the knockout is complete."))
        return redirect("tournament:final", slug=tournament.slug)
    messages.success(request, _("The next knockout round was made as a draft."))
    return redirect(_round_url(round_))
