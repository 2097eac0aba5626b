"""Print pages and PDF downloads. Thin: parse the request, call a service."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from core.errors import ApplicationError
from core.request import query_choice, query_int, query_text
from core.venue import is_loopback_url
from games.models import MAX_TABLE_NUMBER, Game
from printing import services
from printing.forms import ScoreSheetsForm
from printing.models import PrintJob
from tournament.models import MAX_ROUND_NUMBER, Round, Tournament
from tournament.permissions import require_organiser


def _lang(request: HttpRequest) -> str:
    """The document language: ``?lang=`` if given, else the page's (Danish default)."""
    page = "en" if (translation.get_language() or "da")[:2] == "en" else "da"
    return query_choice(request, "lang", services.LANGUAGES, page)


def _error(request: HttpRequest, error: ApplicationError) -> HttpResponse:
    if not request.user.is_authenticated and error.status_code == 403:
        return redirect_to_login(request.get_full_path())
    return render(request, "printing/error.html", {"error": error}, status=error.status_code)


def _pdf(content: bytes, filename: str, *, private: bool) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    # Documents with table tokens must not sit in shared caches.
    response["Cache-Control"] = "private, no-store" if private else "public, max-age=30"
    return response


def _handles_errors(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            return view(request, *args, **kwargs)
        except ApplicationError as error:
            return _error(request, error)

    return wrapper


def _round(slug: str, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament__slug=slug, number=number
    )


@require_GET
@never_cache
@_handles_errors
def round_print(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round = _round(slug, number)
    tournament = round.tournament
    require_organiser(request.user, tournament)
    jobs = {job.kind: job for job in PrintJob.objects.filter(round=round)}
    batches = [
        {
            "kind": kind,
            "label": label,
            "size": "A5" if kind.endswith("a5") else "A4",
            "job": jobs.get(kind),
        }
        for kind, label in PrintJob.Kind.choices
    ]
    lang = _lang(request)
    return render(
        request,
        "printing/round_print.html",
        {
            "tournament": tournament,
            "round": round,
            # The documents' language, chosen on the page (its links and forms carry it).
            "lang": lang,
            "languages": [("da", "Dansk"), ("en", "English")],
            "batches": batches,
            "games": round.games.order_by("table_number"),
            "site_url": settings.SITE_URL,
            # Phones cannot open a loopback address: the sheets would be useless.
            "site_url_unreachable": is_loopback_url(settings.SITE_URL),
        },
    )


@require_POST
def score_sheets_job(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    wants_json = request.headers.get("Accept", "").startswith("application/json")
    round = _round(slug, number)
    size = ScoreSheetsForm(request.POST).page_size()
    kind = PrintJob.Kind.SCORE_SHEETS_A5 if size == "A5" else PrintJob.Kind.SCORE_SHEETS_A4
    try:
        job = services.print_job_request(
            round=round, actor=request.user, kind=kind, lang=_lang(request)
        )
    except ApplicationError as error:
        if wants_json:
            return JsonResponse(error.to_json(), status=error.status_code)
        return _error(request, error)
    if wants_json:
        return JsonResponse(_job_json(job))
    page = reverse("printing:round_print", args=[slug, number])
    return redirect(f"{page}?lang={job.language}#job-{job.kind}")


def _job_json(job: PrintJob) -> dict[str, Any]:
    done = job.status == PrintJob.Status.DONE and bool(job.file)
    return {
        "id": job.pk,
        "kind": job.kind,
        "status": job.status,
        "status_label": str(job.get_status_display()),
        "progress": job.progress,
        "total": job.total,
        "percent": job.percent,
        "error": job.error,
        "download_url": reverse("printing:job_download", args=[job.tournament.slug, job.pk])
        if done
        else None,
        "finished_at": job.finished_at.isoformat() if job.finished_at else None,
        "progress_url": reverse("printing:job_progress", args=[job.tournament.slug, job.pk]),
    }


def _job(slug: str, job_id: int) -> PrintJob:
    return get_object_or_404(
        PrintJob.objects.select_related("tournament", "round"), pk=job_id, tournament__slug=slug
    )


@require_GET
@never_cache
def job_progress(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    try:
        job = services.print_job_status(job=_job(slug, job_id), actor=request.user)
    except ApplicationError as error:
        return JsonResponse(error.to_json(), status=error.status_code)
    return JsonResponse(_job_json(job))


@require_GET
@_handles_errors
def job_download(request: HttpRequest, slug: str, job_id: int) -> FileResponse:
    job = services.print_job_for_download(job=_job(slug, job_id), actor=request.user)
    filename = f"{slug}-round-{job.round.number}-{job.page_size}.pdf"
    response = FileResponse(job.file.open("rb"), content_type="application/pdf", filename=filename)
    response["Cache-Control"] = "private, no-store"
    return response


@require_GET
@_handles_errors
def score_sheets_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round = _round(slug, number)
    require_organiser(request.user, round.tournament)
    table = query_int(request, "table", minimum=1, maximum=MAX_TABLE_NUMBER)
    pdf = services.score_sheets_render(
        round=round,
        actor=request.user,
        page_size=query_text(request, "size", max_length=10, default="A4"),
        lang=_lang(request),
        table_number=table,
    )
    suffix = f"-table-{table}" if table is not None else ""
    return _pdf(pdf, f"{slug}-round-{number}{suffix}-score-sheets.pdf", private=True)


@require_GET
@_handles_errors
def pairings_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round = _round(slug, number)
    pdf = services.pairings_list_render(round=round, actor=request.user, lang=_lang(request))
    return _pdf(
        pdf, f"{slug}-round-{number}-pairings.pdf", private=round.status == Round.Status.DRAFT
    )


@require_GET
@_handles_errors
def standings_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    pdf = services.standings_render(
        tournament=tournament,
        actor=request.user,
        lang=_lang(request),
        up_to_round=query_int(request, "round", minimum=0, maximum=MAX_ROUND_NUMBER),
    )
    return _pdf(pdf, f"{slug}-standings.pdf", private=not tournament.published)


@require_GET
@_handles_errors
def bracket_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    pdf = services.bracket_render(tournament=tournament, actor=request.user, lang=_lang(request))
    return _pdf(pdf, f"{slug}-bracket.pdf", private=not tournament.published)


@require_GET
@_handles_errors
def final_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    pdf = services.final_results_render(
        tournament=tournament, actor=request.user, lang=_lang(request)
    )
    return _pdf(pdf, f"{slug}-final-results.pdf", private=not tournament.published)


@require_GET
@_handles_errors
def judge_report_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    pdf = services.judge_report_render(
        tournament=tournament, actor=request.user, lang=_lang(request)
    )
    return _pdf(pdf, f"{slug}-judge-report.pdf", private=True)


@require_GET
@_handles_errors
def game_record_pdf(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    game = get_object_or_404(
        Game.objects.select_related(
            "round__tournament",
            "pair_yb__player_1",
            "pair_yb__player_2",
            "pair_rg__player_1",
            "pair_rg__player_2",
        ),
        pk=game_id,
        round__tournament__slug=slug,
    )
    pdf = services.game_record_render(game=game, actor=request.user, lang=_lang(request))
    name = f"{slug}-round-{game.round.number}-table-{game.table_number}-record.pdf"
    return _pdf(pdf, name, private=True)
