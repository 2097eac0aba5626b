"""Judge entries read as words wherever the log is shown (headless Chromium): the
table device's log and its rulings list, the public live view, in Danish and
English; the table names the judge on the way by full name, in a sentence."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.services.judges import JudgeAtEvent
from judging.services.calls import judge_call_create, judge_call_take
from judging.services.rulings import ruling_void, ruling_warning
from tests.e2e.test_table_device import device, table_at  # noqa: F401  (fixture)
from tests.factories import judge_of

pytestmark = pytest.mark.django_db(transaction=True)

NOTATION = re.compile(r"\b(VOID|UPHOLD|WARN|RESULT|KEEP)\b")


def _ruled(live_server, entries: int):  # type: ignore[no-untyped-def]
    game, url = table_at(live_server, entries)
    judge = judge_of(game.round.tournament, username="uret")
    judge.first_name, judge.last_name = "Ulla", "Ravn"
    judge.save()
    ruling_void(game=game, actor=judge, seq=entries, reason="Kortet var allerede spillet.")
    ruling_warning(game=game, actor=judge, seat="R", reason="Snak ved bordet")
    return game, url, judge


def _live_url(live_server, game) -> str:  # type: ignore[no-untyped-def]
    slug, number = game.round.tournament.slug, game.round.number
    return f"{live_server.url}/tournaments/{slug}/rounds/{number}/tables/{game.table_number}/"


def test_the_table_reads_judge_entries_in_words_and_names_the_judge(device, live_server):  # noqa: F811
    game, url, judge = _ruled(live_server, 6)
    call = judge_call_create(game=game, client_id="words-call-1")
    judge_call_take(call=call, judge=JudgeAtEvent(call.tournament, judge))
    _ctx, page = device(390, 844)
    page.goto(url)
    log = page.locator("#log")
    expect(log).to_contain_text("Annulleret: post 6")
    expect(log).to_contain_text("Advarsel til Rød")
    assert not NOTATION.search(log.text_content() or "")
    rulings = page.locator("#judge-rulings")
    expect(rulings).to_contain_text("7. Annulleret: post 6")
    expect(rulings).to_contain_text("8. Advarsel til Rød")
    assert not NOTATION.search(rulings.text_content() or "")
    status = page.locator("#judge-call-status")
    expect(status).to_have_text("Dommer på vej: Ulla Ravn.")
    assert "uret" not in (status.text_content() or "")


@pytest.mark.parametrize(
    ("locale", "void", "warning"),
    [
        ("da-DK", "Dommerkendelse: Annulleret: post 4", "Dommerkendelse: Advarsel til Rød"),
        ("en-GB", "Judge ruling: Entries voided: 4", "Judge ruling: Warning to Red"),
    ],
)
def test_the_live_view_reads_judge_entries_in_words(browser, live_server, locale, void, warning):  # type: ignore[no-untyped-def]
    game, _url, _judge = _ruled(live_server, 4)
    ctx = browser.new_context(locale=locale, viewport={"width": 390, "height": 844})
    try:
        ctx.set_default_timeout(10_000)
        page = ctx.new_page()
        page.goto(_live_url(live_server, game))
        if locale.startswith("en"):
            page.click("a.lang-link[lang=en]")
        words = page.locator("#log .entry-words")
        expect(words.filter(has_text=void)).to_have_count(1)
        expect(words.filter(has_text=warning)).to_have_count(1)
        assert not NOTATION.search(" ".join(words.all_text_contents()))
    finally:
        ctx.close()
