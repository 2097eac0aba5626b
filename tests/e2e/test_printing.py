"""Batch printing in a real browser: the organiser starts the score sheets of
a round, the page shows the progress bar and then the download link."""

from __future__ import annotations

import pytest

from config.celery import app
from printing.models import PrintJob
from tests.e2e.conftest import login
from tests.factories import GameFactory, RoundFactory, TournamentFactory, organiser_of


@pytest.fixture
def eager_celery():
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


def test_organiser_prints_score_sheets_with_progress_and_download(
    page, live_server, transactional_db, settings, tmp_path, eager_celery
):
    settings.MEDIA_ROOT = tmp_path
    tournament = TournamentFactory(slug="dm-print")
    organiser_of(tournament, username="print-org")
    round = RoundFactory(tournament=tournament, number=1)
    for table in (1, 2, 3):
        GameFactory(round=round, table_number=table)
    login(page, live_server, "print-org")

    page.goto(f"{live_server.url}/tournaments/dm-print/rounds/1/print/")
    item = page.locator("#job-score_sheets_a4")
    assert item.locator(".print-download").is_hidden()
    item.locator("button[type=submit]").click()
    link = item.locator(".print-download")
    link.wait_for(state="visible")
    assert item.locator(".print-progress").get_attribute("value") == "100"
    assert "Færdig" in item.locator(".print-state").inner_text()
    assert "3/3" in item.locator(".print-state").inner_text()
    response = page.request.get(live_server.url + link.get_attribute("href"))
    assert response.status == 200 and response.body().startswith(b"%PDF")
    assert PrintJob.objects.get().status == PrintJob.Status.DONE
    assert page.url.endswith("/print/")  # no page load: the script did the work
