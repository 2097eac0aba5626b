"""Judges first, on a phone: the urgent things on the first screen, the sound
switch that the device remembers, one form that decides a timed-out game, and
a review page of at most two screens."""

from __future__ import annotations

import datetime
import os

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import selfplay_game
from games.selectors import log_cache
from games.services import clock as clock_service
from games.services.clock import clock_start
from games.services.move_log import move_submit
from judging.services.alerts import alerts_raise_due
from judging.services.calls import judge_call_create
from tests.e2e.conftest import login
from tests.factories import GameFactory, RoundFactory, judge_of

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]
SHOTS = os.environ.get("JUDGE_SHOTS")  # a folder to keep screenshots in, when looking at them


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name), full_page=True)


def _log(game, moves):
    for i, text in enumerate(moves):
        move_submit(game=game, text=text, client_id=f"setup-{game.pk}-{i:04d}", expected_seq=i)


@pytest.fixture
def busy_round(monkeypatch):
    """Eight tables: one past the limit, one at 50 minutes, one calling a judge."""
    monkeypatch.setattr(clock_service, "_schedule_marks", lambda clocks: None)  # no broker
    log_cache.clear()
    round_ = RoundFactory(status="in_progress")
    now = timezone.now()
    games = {n: GameFactory(round=round_, table_number=n) for n in range(1, 9)}
    for n, game in games.items():
        minutes = {2: 51, 3: 61}.get(n, 20)
        clock_start(game=game, at=now - datetime.timedelta(minutes=minutes))
    moves = selfplay_game(7, first_dealer="Y")["moves"]
    _log(games[3], moves[:40])
    _log(games[5], moves[:12])
    alerts_raise_due()
    judge_call_create(game=games[5], client_id="call-5", reason="Er syveren delt rigtigt?", seq=12)
    judge_of(round_.tournament)
    yield round_, games
    log_cache.clear()


@pytest.mark.parametrize("size", PHONES, ids=["390x844", "360x740"])
def test_the_urgent_things_are_on_the_first_screen(page, live_server, busy_round, size):
    round_, _games = busy_round
    page.set_viewport_size(size)
    login(page, live_server, "judge")
    page.goto(f"{live_server.url}/tournaments/{round_.tournament.slug}/judge/")
    expect(page.locator("#judge-calls li[data-call-id]")).to_have_count(1)
    expect(page.locator("#alert-group-limit-60")).to_be_visible()
    _shot(page, f"dashboard-{size['width']}.png")
    for selector in ("#judge-calls li[data-call-id]", "#alert-group-limit-60"):
        box = page.locator(selector).bounding_box()
        assert box["y"] + 40 < size["height"], selector


@pytest.mark.parametrize("size", PHONES, ids=["390x844", "360x740"])
def test_the_sound_switch_shows_its_state_and_the_device_keeps_it(
    page, live_server, busy_round, size
):
    round_, _games = busy_round
    page.set_viewport_size(size)
    login(page, live_server, "judge")
    page.goto(f"{live_server.url}/tournaments/{round_.tournament.slug}/judge/")
    switch = page.locator("#judge-sound")
    expect(switch).to_have_text("Lyd: fra")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(switch).to_have_text("Lyd: til")
    expect(switch).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator("#judge-sound")).to_have_text("Lyd: til")
    expect(page.locator("#judge-sound")).to_have_attribute("aria-pressed", "true")
    page.locator("#judge-sound").click()
    page.reload()
    expect(page.locator("#judge-sound")).to_have_text("Lyd: fra")
    expect(page.locator("#judge-sound")).to_have_attribute("aria-pressed", "false")


def _page_height(page):
    return page.evaluate("document.documentElement.scrollHeight")


@pytest.mark.parametrize("size", PHONES, ids=["390x844", "360x740"])
def test_the_review_page_fits_two_screens_with_its_decisions_reachable(
    page, live_server, busy_round, size
):
    round_, games = busy_round
    page.set_viewport_size(size)
    login(page, live_server, "judge")
    page.goto(f"{live_server.url}/tournaments/{round_.tournament.slug}/judge/")
    page.locator("#judge-calls a.review-link").click()  # the call's table, at its entry
    expect(page.locator("#entry-text")).to_be_visible()
    expect(page.locator("#call-box")).to_contain_text("Er syveren delt rigtigt?")
    _shot(page, f"review-call-{size['width']}.png")
    assert _page_height(page) <= 2 * size["height"]
    # The log and the rule's text are folded; each ruling is one tap from its heading.
    assert not page.locator("#review-log-box").get_attribute("open")
    expect(page.locator("#review-log-box .review-log")).to_be_hidden()
    expect(page.locator("#rule-text summary")).to_contain_text("Regel")
    expect(page.locator("#rule-heading")).to_have_text("Træf en afgørelse")
    for box in ("uphold", "void", "position", "penalty", "warning", "result"):
        expect(page.locator(f"#ruling-{box} > summary")).to_be_visible()
    page.locator("#ruling-uphold > summary").click()
    page.locator("#form-uphold textarea[name=reason]").fill("Syveren var delt lovligt")
    page.locator("#form-uphold button[value=uphold]").click()
    expect(page.locator(".messages .success")).to_contain_text("Loggen stadfæstet")

    page.goto(f"{live_server.url}/tournaments/{round_.tournament.slug}/judge/games/{games[3].pk}/")
    expect(page.locator("#form-adjudication")).to_be_visible()
    _shot(page, f"review-timeout-{size['width']}.png")
    assert _page_height(page) <= 2 * size["height"]
    assert page.locator("#decide-on-time").bounding_box()["y"] < size["height"]


@pytest.mark.parametrize("size", PHONES, ids=["390x844", "360x740"])
def test_one_form_decides_a_timed_out_game_with_the_engines_proposal(
    page, live_server, busy_round, size
):
    from games.models import Game
    from judging.models import Ruling
    from judging.selectors_timeout import timeout_proposal

    round_, games = busy_round
    timed_out = games[3]
    timed_out.refresh_from_db()
    assert timed_out.status == Game.Status.TIME_UP
    proposal = timeout_proposal(game=timed_out)
    assert proposal.source == "log" and proposal.winner in ("YB", "RG")
    names = {"YB": "Gul/Blå", "RG": "Rød/Grøn"}
    page.set_viewport_size(size)
    login(page, live_server, "judge")
    page.goto(f"{live_server.url}/tournaments/{round_.tournament.slug}/judge/")
    page.locator(f"#table-{timed_out.pk} a.judge-table__review").click()
    # One form, the proposal in words and already chosen; no second form for the result.
    expect(page.locator("#form-adjudication")).to_have_count(1)
    expect(page.locator("#form-result")).to_have_count(0)
    expect(page.locator("#proposal")).to_contain_text(
        f"Motoren foreslår: {names[proposal.winner]} vinder."
    )
    assert "—" not in page.locator("#proposal").inner_text()
    expect(page.locator("#form-adjudication select[name=winner]")).to_have_value(proposal.winner)
    page.locator("#decide-on-time").click()
    expect(page.locator(".messages .success")).to_contain_text("Afgjort på tid")
    timed_out.refresh_from_db()
    assert timed_out.status == Game.Status.FINISHED and timed_out.timed_out
    assert timed_out.winner == proposal.winner
    assert timed_out.result_source == Game.ResultSource.ADJUDICATED
    ruling = Ruling.objects.get(game=timed_out)
    assert ruling.kind == Ruling.Kind.ADJUDICATION and ruling.data["override"] is False


def test_a_timed_out_table_that_logged_nothing_says_there_is_no_proposal(
    page, live_server, monkeypatch
):
    from games.models import Game

    monkeypatch.setattr(clock_service, "_schedule_marks", lambda clocks: None)
    round_ = RoundFactory(status="in_progress")
    game = GameFactory(round=round_, table_number=1)
    clock_start(game=game, at=timezone.now() - datetime.timedelta(minutes=61))
    alerts_raise_due()
    judge_of(round_.tournament)
    page.set_viewport_size(PHONES[0])
    login(page, live_server, "judge")
    page.goto(f"{live_server.url}/tournaments/{round_.tournament.slug}/judge/games/{game.pk}/")
    expect(page.locator("#proposal")).to_contain_text(
        "Motoren har intet forslag: Bordet har ikke logget nogen træk"
    )
    _shot(page, "review-timeout-no-log.png")
    form = page.locator("#form-adjudication")
    expect(form.locator("select[name=winner]")).to_have_value("")
    form.locator("select[name=winner]").select_option("RG")
    form.locator("textarea[name=reason]").fill("Scorearket: Rød/Grøn havde 6 brikker låst")
    page.locator("#decide-on-time").click()
    expect(page.locator(".messages .success")).to_be_visible()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "RG" and game.timed_out
    assert game.distance_yb is None  # no starting-position numbers recorded as the result's
