"""Rendering documents for a request, and batch print jobs.

Every function checks who may have the document: score sheets (they carry
table tokens) only organisers; game records and the judge report judges
and organisers; pairings, standings and the bracket anyone once public.
"""

from __future__ import annotations

import datetime
import logging

from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, NotFound
from core.users import Actor, signed_in
from games.models import Game
from printing import data
from printing.documents import (
    build_bracket,
    build_final_results,
    build_game_record,
    build_judge_report,
    build_pairings_list,
    build_score_sheets,
    build_standings,
)
from printing.models import PrintJob
from tournament.models import Round, Tournament
from tournament.permissions import (
    require_judge,
    require_organiser,
    require_round_visible,
    require_tournament_visible,
)
from tournament.services.audit import audit_record

logger = logging.getLogger(__name__)

LANGUAGES = ("da", "en")
PAGE_SIZES = ("A4", "A5")
# A queued or running job untouched for this long is taken to be lost (its
# worker died or the broker dropped the message) and may be claimed again.
STALE_AFTER = datetime.timedelta(minutes=5)
# Progress is written at most this many times per job.
PROGRESS_STEPS = 20


def _lang(lang: str | None) -> str:
    return lang if lang in LANGUAGES else "da"


def _require_games(games: list[Game]) -> None:
    if not games:
        raise ApplicationError(
            "round_has_no_games",
            _("This round has no tables to print yet. Pair the round first."),
        )


def score_sheets_render(
    *,
    round: Round,
    actor: Actor,
    page_size: str = "A4",
    lang: str | None = None,
    table_number: int | None = None,
) -> bytes:
    """Score sheets of a whole round or one table, rendered at once."""
    require_organiser(actor, round.tournament)
    if page_size not in PAGE_SIZES:
        raise ApplicationError("page_size_unknown", _("Choose A4 or A5."))
    games = data.round_games(round=round)
    if table_number is not None:
        games = [g for g in games if g.table_number == table_number]
        if not games:
            raise NotFound(
                "table_not_found",
                _("There is no such table in this round."),
            )
    _require_games(games)
    sheets = data.score_sheets_data(round=round, games=games, lang=_lang(lang))
    audit_record(
        tournament=round.tournament,
        actor=actor,
        action="print_score_sheets",
        target=round,
        data={"tables": [s.table_number for s in sheets], "page_size": page_size},
    )
    return build_score_sheets(sheets, page_size=page_size, lang=_lang(lang))


def pairings_list_render(*, round: Round, actor: Actor, lang: str | None = None) -> bytes:
    require_round_visible(actor, round)
    lang = _lang(lang)
    return build_pairings_list(data.pairings_data(round=round, lang=lang), lang=lang)


def standings_render(
    *,
    tournament: Tournament,
    actor: Actor,
    lang: str | None = None,
    up_to_round: int | None = None,
) -> bytes:
    require_tournament_visible(actor, tournament)
    lang = _lang(lang)
    table = data.standings_data(tournament=tournament, up_to_round=up_to_round, lang=lang)
    return build_standings(table, lang=lang)


def bracket_render(*, tournament: Tournament, actor: Actor, lang: str | None = None) -> bytes:
    require_tournament_visible(actor, tournament)
    lang = _lang(lang)
    return build_bracket(data.bracket_data(tournament=tournament, lang=lang), lang=lang)


def final_results_render(*, tournament: Tournament, actor: Actor, lang: str | None = None) -> bytes:
    require_tournament_visible(actor, tournament)
    lang = _lang(lang)
    return build_final_results(data.final_results_data(tournament=tournament, lang=lang), lang=lang)


def game_record_render(*, game: Game, actor: Actor, lang: str | None = None) -> bytes:
    require_judge(actor, game.round.tournament)
    lang = _lang(lang)
    return build_game_record(data.game_record_data(game=game, lang=lang), lang=lang)


def judge_report_render(*, tournament: Tournament, actor: Actor, lang: str | None = None) -> bytes:
    require_judge(actor, tournament)
    lang = _lang(lang)
    with translation.override(lang):
        report = data.judge_report_data(tournament=tournament)
    return build_judge_report(report, lang=lang)


# --- batch print jobs ------------------------------------------------------


def _claimable(now: datetime.datetime) -> Q:
    finished = Q(status__in=[PrintJob.Status.DONE, PrintJob.Status.FAILED])
    lost = Q(
        status__in=[PrintJob.Status.QUEUED, PrintJob.Status.RUNNING],
        updated_at__lt=now - STALE_AFTER,
    )
    return finished | lost


def print_job_request(
    *,
    round: Round,
    actor: Actor,
    kind: str = PrintJob.Kind.SCORE_SHEETS_A4,
    lang: str | None = None,
) -> PrintJob:
    """Queue (or re-queue) the batch for ``round``; one job row per round and kind.

    A job already queued or running is returned as it is, so a double tap
    starts nothing twice. A finished or failed job is queued again and its
    file is replaced when the new run completes.
    """
    tournament = round.tournament
    require_organiser(actor, tournament)
    if kind not in PrintJob.Kind.values:
        raise ApplicationError("print_kind_unknown", _("Unknown document."))
    _require_games(data.round_games(round=round))
    user = signed_in(actor)
    now = timezone.now()
    try:
        with transaction.atomic():
            job, created = PrintJob.objects.get_or_create(
                round=round,
                kind=kind,
                defaults={"tournament": tournament, "language": _lang(lang), "created_by": user},
            )
    except IntegrityError:  # a concurrent request created it first
        job, created = PrintJob.objects.get(round=round, kind=kind), False
    if not created:
        requeued = PrintJob.objects.filter(_claimable(now), pk=job.pk).update(
            status=PrintJob.Status.QUEUED,
            progress=0,
            error="",
            language=_lang(lang),
            created_by=user,
            updated_at=now,
        )
        job.refresh_from_db()
        if not requeued:
            return job
    audit_record(
        tournament=tournament,
        actor=actor,
        action="print_job_request",
        target=round,
        data={"kind": kind, "job": job.pk},
    )
    from printing.tasks import print_job_build

    transaction.on_commit(lambda: print_job_build.delay(job.pk))
    return job


def print_job_run(*, job_id: int, final_attempt: bool = True) -> PrintJob | None:
    """Build the job's PDF if this call can claim it; None when another run has it.

    Safe to call twice: the claim is a conditional UPDATE on the job's status,
    so only one worker builds a given request. On an unexpected error the job
    is queued again for a retry, or marked failed on the ``final_attempt``.
    """
    now = timezone.now()
    lost_run = Q(status=PrintJob.Status.RUNNING, updated_at__lt=now - STALE_AFTER)
    claimed = PrintJob.objects.filter(
        Q(status=PrintJob.Status.QUEUED) | lost_run, pk=job_id
    ).update(
        status=PrintJob.Status.RUNNING,
        progress=0,
        total=0,
        error="",
        attempts=F("attempts") + 1,
        updated_at=now,
    )
    if not claimed:
        return None
    job = PrintJob.objects.select_related("round__tournament").get(pk=job_id)
    try:
        pdf = _build_job(job)
    except Exception as exc:
        expected = isinstance(exc, ApplicationError)
        message = (
            exc.message if isinstance(exc, ApplicationError) else f"{type(exc).__name__}: {exc}"
        )
        retry = not (final_attempt or expected)
        status = PrintJob.Status.QUEUED if retry else PrintJob.Status.FAILED
        PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.RUNNING).update(
            status=status, error=message[:2000], updated_at=timezone.now()
        )
        raise
    _store_file(job, pdf)
    return job


def _build_job(job: PrintJob) -> bytes:
    games = data.round_games(round=job.round)
    _require_games(games)
    total = len(games)
    PrintJob.objects.filter(pk=job.pk).update(total=total, updated_at=timezone.now())
    step = max(1, total // PROGRESS_STEPS)

    def on_progress(done: int, total: int) -> None:
        if done % step == 0 or done == total:
            PrintJob.objects.filter(pk=job.pk, status=PrintJob.Status.RUNNING).update(
                progress=done, updated_at=timezone.now()
            )

    sheets = data.score_sheets_data(round=job.round, games=games, lang=_lang(job.language))
    return build_score_sheets(
        sheets, page_size=job.page_size, lang=_lang(job.language), on_progress=on_progress
    )


def _store_file(job: PrintJob, pdf: bytes) -> None:
    """Save the new file, point the job at it, then delete the old one.

    Readers keep getting the previous file until the new one is complete; a
    re-run leaves exactly one file per job.
    """
    old_name = job.file.name
    name = f"print/{job.round.tournament.slug}/round-{job.round.number}-{job.kind}.pdf"
    new_name = job.file.storage.save(name, ContentFile(pdf))
    updated = PrintJob.objects.filter(pk=job.pk, status=PrintJob.Status.RUNNING).update(
        status=PrintJob.Status.DONE,
        file=new_name,
        progress=F("total"),
        finished_at=timezone.now(),
        updated_at=timezone.now(),
    )
    if not updated:  # re-queued meanwhile: this file is already out of date
        job.file.storage.delete(new_name)
        return
    if old_name and old_name != new_name:
        job.file.storage.delete(old_name)
    job.refresh_from_db()


def print_job_for_download(*, job: PrintJob, actor: Actor) -> PrintJob:
    require_organiser(actor, job.tournament)
    if job.status != PrintJob.Status.DONE or not job.file:
        raise NotFound("print_job_not_ready", _("The file is not ready yet."))
    return job


def print_job_status(*, job: PrintJob, actor: Actor) -> PrintJob:
    require_organiser(actor, job.tournament)
    return job


def print_jobs_drop(*, tournaments: list[Tournament]) -> int:
    """Delete the stored PDFs of these events (their players' names changed:
    an anonymisation); the organiser prints again. A job still running finds
    its row gone and deletes the file it made. Returns how many were dropped."""
    jobs = PrintJob.objects.filter(tournament__in=tournaments)
    names = [name for name in jobs.values_list("file", flat=True) if name]
    storage = PrintJob._meta.get_field("file").storage
    dropped, _by_model = jobs.delete()

    def delete_files() -> None:
        for name in names:
            storage.delete(name)

    transaction.on_commit(delete_files)
    return dropped


def print_jobs_drop_on_anonymise(
    sender: object, *, tournaments: list[Tournament], **kwargs: object
) -> None:
    """Receiver of ``tournament.signals.players_anonymised``."""
    print_jobs_drop(tournaments=tournaments)
