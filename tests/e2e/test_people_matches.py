"""A suggested match seen and decided in the browser: the other organiser
keeps his page to his own people; staff merge the two Kirstens."""

from __future__ import annotations

from tests.e2e.conftest import login
from tests.season.test_people_permissions import build_world


def test_staff_confirm_a_suggested_match_and_the_owner_sees_who_may(  # type: ignore[no-untyped-def]
    page, live_server, transactional_db, tmp_path
):
    world = build_world()
    page.set_viewport_size({"width": 390, "height": 844})
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_server, "owner")
    page.goto(f"{live_server.url}/organise/seasons/{world.season.slug}/people/")
    page.screenshot(path=str(tmp_path / "season-people.png"), full_page=True)
    page.click("text=Foreslåede match")
    assert "Kun forbundets administratorer må lægge disse to sammen." in page.content()
    page.screenshot(path=str(tmp_path / "matches-owner.png"), full_page=True)
    page.context.clear_cookies()
    login(page, live_server, "staff")
    page.goto(f"{live_server.url}/organise/people/matches/")
    page.click("text=Samme person: læg sammen")
    page.wait_for_load_state("networkidle")
    assert "De er nu én person." in page.content()
    page.screenshot(path=str(tmp_path / "matches-staff.png"), full_page=True)
    world.match.refresh_from_db()
    assert world.match.status == "confirmed"
