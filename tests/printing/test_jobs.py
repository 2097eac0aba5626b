import datetime
import os

import pytest
from django.utils import timezone

from core.errors import ApplicationError, PermissionDenied
from games.services.tokens import game_token
from printing import services
from printing.models import PrintJob
from printing.tasks import print_job_build
from tests.factories import RoundFactory
from tests.printing.pdf_tools import pdf_pages, qr_codes
from tournament.models import AuditEntry


def _files(media_root):
    return sorted(
        os.path.relpath(os.path.join(d, f), media_root)
        for d, _dirs, files in os.walk(media_root)
        for f in files
    )


def test_request_queues_once_and_enqueues_after_commit(
    round_with_games, organiser, django_capture_on_commit_callbacks, monkeypatch
):
    sent = []
    monkeypatch.setattr(print_job_build, "delay", lambda job_id: sent.append(job_id))
    with django_capture_on_commit_callbacks(execute=True):
        job = services.print_job_request(round=round_with_games, actor=organiser)
        again = services.print_job_request(round=round_with_games, actor=organiser)  # double tap
    assert job.pk == again.pk and job.status == PrintJob.Status.QUEUED
    assert sent == [job.pk]
    assert PrintJob.objects.count() == 1
    assert AuditEntry.objects.filter(action="print_job_request").count() == 1


def test_run_builds_one_pdf_with_every_table_and_reports_progress(
    round_with_games, organiser, monkeypatch
):
    monkeypatch.setattr(print_job_build, "delay", lambda job_id: None)
    job = services.print_job_request(round=round_with_games, actor=organiser, lang="en")
    seen = []
    real = services.build_score_sheets

    def spy(sheets, **kwargs):
        progress = kwargs["on_progress"]

        def record(done, total):
            progress(done, total)
            seen.append(PrintJob.objects.values_list("status", "progress", "total").get())

        return real(sheets, **{**kwargs, "on_progress": record})

    monkeypatch.setattr(services, "build_score_sheets", spy)
    services.print_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and job.progress == job.total == 3
    assert job.percent == 100 and job.attempts == 1 and job.finished_at
    assert seen == [("running", 1, 3), ("running", 2, 3), ("running", 3, 3)]
    pdf = job.file.read()
    pages = pdf_pages(pdf)
    assert len(pages) == 3 and "Anne Als" in pages[0] and "Ib Ild" in pages[2]
    game = round_with_games.games.get(table_number=2)
    assert qr_codes(pdf, 1) == [f"https://dm.example/t/{game_token(game=game)}/"]


def test_running_the_task_twice_builds_once(round_with_games, organiser, monkeypatch):
    monkeypatch.setattr(print_job_build, "delay", lambda job_id: None)
    job = services.print_job_request(round=round_with_games, actor=organiser)
    assert services.print_job_run(job_id=job.pk) is not None
    assert services.print_job_run(job_id=job.pk) is None  # already done: nothing claimed
    job.refresh_from_db()
    assert job.attempts == 1


def test_rerun_replaces_the_file_and_keeps_one_row(
    round_with_games, organiser, media_root, monkeypatch
):
    monkeypatch.setattr(print_job_build, "delay", lambda job_id: None)
    job = services.print_job_request(round=round_with_games, actor=organiser)
    services.print_job_run(job_id=job.pk)
    first = PrintJob.objects.get().file.name
    assert len(_files(media_root)) == 1
    again = services.print_job_request(round=round_with_games, actor=organiser)
    assert again.pk == job.pk and again.status == PrintJob.Status.QUEUED and again.progress == 0
    assert PrintJob.objects.get().file.name == first  # old file served until the new one is done
    services.print_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert PrintJob.objects.count() == 1
    files = _files(media_root)
    assert files == [job.file.name] and job.file.name != first
    assert job.attempts == 2


def test_a5_and_a4_are_separate_jobs(round_with_games, organiser, monkeypatch):
    monkeypatch.setattr(print_job_build, "delay", lambda job_id: None)
    a4 = services.print_job_request(round=round_with_games, actor=organiser)
    a5 = services.print_job_request(
        round=round_with_games, actor=organiser, kind=PrintJob.Kind.SCORE_SHEETS_A5
    )
    assert a4.pk != a5.pk and a5.page_size == "A5"


def test_failed_run_is_retried_then_marked_failed_and_can_be_requested_again(
    round_with_games, organiser, monkeypatch
):
    monkeypatch.setattr(print_job_build, "delay", lambda job_id: None)
    job = services.print_job_request(round=round_with_games, actor=organiser)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(services, "build_score_sheets", broken)
    with pytest.raises(OSError):
        services.print_job_run(job_id=job.pk, final_attempt=False)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.QUEUED and "disk full" in job.error
    with pytest.raises(OSError):
        services.print_job_run(job_id=job.pk, final_attempt=True)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED and not job.file
    monkeypatch.undo()
    monkeypatch.setattr(print_job_build, "delay", lambda job_id: None)
    services.print_job_request(round=round_with_games, actor=organiser)
    services.print_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and job.error == ""


def test_task_retries_with_bounds(round_with_games, organiser, monkeypatch):
    monkeypatch.setattr(print_job_build, "delay", lambda job_id: None)
    job = services.print_job_request(round=round_with_games, actor=organiser)
    calls = []

    def broken(*args, **kwargs):
        calls.append(1)
        raise OSError("disk full")

    monkeypatch.setattr(services, "build_score_sheets", broken)
    result = print_job_build.apply(args=[job.pk])  # eager run, retries included
    assert result.failed()
    assert len(calls) == print_job_build.max_retries + 1
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED and job.attempts == len(calls)


def test_celery_eager_mode_end_to_end(
    round_with_games, organiser, django_capture_on_commit_callbacks
):
    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            job = services.print_job_request(round=round_with_games, actor=organiser)
    finally:
        app.conf.task_always_eager = previous
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and len(pdf_pages(job.file.read())) == 3


def test_a_lost_run_can_be_claimed_again(round_with_games, organiser, monkeypatch):
    monkeypatch.setattr(print_job_build, "delay", lambda job_id: None)
    job = services.print_job_request(round=round_with_games, actor=organiser)
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.RUNNING)
    assert services.print_job_run(job_id=job.pk) is None  # a live run is not taken over
    PrintJob.objects.filter(pk=job.pk).update(
        updated_at=timezone.now() - services.STALE_AFTER - datetime.timedelta(seconds=1)
    )
    assert services.print_job_run(job_id=job.pk) is not None


def test_only_organisers_request_jobs(round_with_games, judge):
    with pytest.raises(PermissionDenied):
        services.print_job_request(round=round_with_games, actor=judge)
    assert not PrintJob.objects.exists()


def test_a_round_without_tables_is_refused_with_a_bilingual_message(tournament, organiser):
    empty = RoundFactory(tournament=tournament, number=2)
    with pytest.raises(ApplicationError) as caught:
        services.print_job_request(round=empty, actor=organiser)
    assert caught.value.code == "round_has_no_games"
    assert "Par runden" in caught.value.message_da
    assert not PrintJob.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_workers_racing_for_one_job_build_it_once(require_postgres, tournament, monkeypatch):
    import threading

    from django.db import connection

    from tests.factories import GameFactory, organiser_of

    organiser = organiser_of(tournament, username="race-org")
    round = RoundFactory(tournament=tournament, number=5)
    for table in (1, 2):
        GameFactory(round=round, table_number=table)
    monkeypatch.setattr(print_job_build, "delay", lambda job_id: None)
    job = services.print_job_request(round=round, actor=organiser)
    barrier = threading.Barrier(2)
    results = []

    def worker():
        barrier.wait()
        try:
            results.append(services.print_job_run(job_id=job.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r is not None for r in results) == 1
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and job.attempts == 1
