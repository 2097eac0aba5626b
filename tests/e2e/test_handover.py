"""The hand-over in the browser, on a phone-sized screen: hand the event over, import
it on the 'laptop' from the downloaded file, and see the backup folder's state."""

from __future__ import annotations

import os

from competition.models import HandOver
from tests.e2e.conftest import login
from tests.factories import PairFactory, TournamentFactory, organiser_of
from tournament.models import Tournament

SHOTS = os.environ.get("E2E_SCREENSHOTS", "")


def _shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def test_hand_over_and_import_on_the_laptop(page, live_server, tmp_path, settings):  # type: ignore[no-untyped-def]
    settings.VENUE_BACKUP_DIR = str(tmp_path / "usb-not-in")
    website = TournamentFactory(slug="dm-phone", name="DM på telefonen")
    for n in range(1, 5):
        PairFactory(tournament=website, start_number=n)
    organiser = organiser_of(website)
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, organiser.username)
    page.goto(f"{live_server.url}/organise/dm-phone/")
    with page.expect_download() as download:
        page.click("#handover button[type=submit]")
    saved = tmp_path / "dm-phone-to-venue.json"
    download.value.save_as(saved)
    assert HandOver.objects.get(tournament=website).state == HandOver.State.AT_VENUE
    page.goto(f"{live_server.url}/organise/dm-phone/")
    assert page.locator("#handover-at-venue").is_visible()
    page.locator("#handover").scroll_into_view_if_needed()
    _shot(page, "handover-at-venue")

    page.goto(f"{live_server.url}/organise/")
    page.set_input_files("#handover-receive input[type=file]", str(saved))
    page.fill("#handover-receive input[name=slug]", "dm-hal")
    page.click("#handover-receive button[type=submit]")
    page.wait_for_url(f"{live_server.url}/organise/dm-hal/")
    assert Tournament.objects.filter(slug="dm-hal").exists()
    assert page.locator("#handover").get_by_role("button").first.is_visible()
    # The USB stick is not in: said on the page, not a crash.
    from competition.services.auto_backup import auto_backups_write

    auto_backups_write()
    page.reload()
    assert page.locator("#backup-problem").is_visible()
    _shot(page, "handover-laptop")
