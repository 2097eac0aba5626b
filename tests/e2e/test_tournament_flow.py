"""The organiser's day in a real browser: create a tournament, import pairs,
pair and publish round 1, enter every result, read the public standings."""

from __future__ import annotations

import re

from tests.e2e.conftest import login
from tests.e2e.data import PAIRS_CSV
from tests.factories import UserFactory
from tournament.models import Tournament


def test_organiser_runs_round_one_and_public_sees_standings(page, live_server, transactional_db):
    UserFactory(username="e2e-org")
    login(page, live_server, "e2e-org")

    # Create the tournament (Danish UI by default).
    page.goto(f"{live_server.url}/organise/new/")
    page.fill("input[name=name]", "DM i Partners E2E")
    page.fill("input[name=date]", "2026-11-28")
    page.fill("input[name=venue]", "Odense")
    page.fill("input[name=swiss_rounds]", "3")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_url(re.compile(r"/organise/[-\w]+/$"))
    tournament = Tournament.objects.get(name="DM i Partners E2E")
    slug = tournament.slug
    # Public only once published, from the dashboard's publish step.
    page.click("#publish-event")
    page.wait_for_load_state("networkidle")

    # Import the pairs from pasted CSV, then check them all in.
    page.click("nav.subnav >> text=Importér CSV")
    page.fill("textarea[name=csv_text]", PAIRS_CSV)
    page.click("#import-form button[type=submit]")
    page.wait_for_url(re.compile(rf"/organise/{slug}/pairs/$"))
    assert page.locator("tr.pair-row").count() == 8
    if page.locator("#check-in-all").count():
        page.click("#check-in-all")
        page.wait_for_load_state("networkidle")
    assert page.locator("tr.status-checked_in").count() == 8

    # Pair round 1 (seeded), preview the draft, publish it.
    page.goto(f"{live_server.url}/organise/{slug}/")
    page.click("#pair-round-form button[type=submit]")
    page.wait_for_url(re.compile(rf"/organise/{slug}/rounds/1/$"))
    assert page.locator("li.table-card").count() == 4
    page.click("#publish-round")
    page.wait_for_load_state("networkidle")
    assert page.locator("#start-round").count() == 1

    # Enter a result at every table: Yellow/Blue wins at odd tables, Red/Green at even.
    for table in range(1, 5):
        card = page.locator(f"#table-{table}")
        winner = "YB" if table % 2 else "RG"
        card.locator(f"input[type=radio][value={winner}]").check()
        card.locator("form.result-form button[type=submit]").click()
        page.wait_for_url(re.compile(rf"/organise/{slug}/rounds/1/"))
        page.wait_for_load_state("networkidle")
    assert page.locator("li.table-card.has-result").count() == 4

    # The public standings, without login, in a fresh browser context.
    context = page.context.browser.new_context(locale="da-DK", timezone_id="Europe/Copenhagen")
    public = context.new_page()
    console_errors = []
    public.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    public.goto(f"{live_server.url}/tournaments/{slug}/standings/")
    rows = public.locator("table.standings tbody tr")
    assert rows.count() == 8
    points = [int(rows.nth(i).locator("td.num strong").inner_text()) for i in range(8)]
    assert points == sorted(points, reverse=True)
    assert points.count(tournament.points_win) == 4
    assert public.locator("html").get_attribute("lang") == "da"
    # The live part is refreshed by static/js/autorefresh.js: no inline script, so the
    # page loads under the site's Content-Security-Policy without violations.
    assert public.locator("[data-autorefresh]").count() == 1
    assert not [e for e in console_errors if "Content Security Policy" in e]
    context.close()
