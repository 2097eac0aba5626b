"""Every public page of the demo fits a phone: at 360×740 and 390×844 no page
scrolls sideways and no table, preformatted text, picture or diagram is cut.

The addresses come from the URL configuration and its policy (every GET that
anyone may read), filled in from the demo's own data: every published event,
each of its rounds, a table of its latest round, a played game, the pair with
the longest names, the season, the player with the most games, a sign-up. A
public page added to the site is walked the day it is added; one whose
values the walk cannot fill in fails it. Answers that are not HTML pages
(JSON, PDF, CSV, a redirect) are not laid out and are left out.

A page fails when the document is wider than the viewport, when an element
ends right of the viewport, when a table, ``pre``, ``svg`` or ``img`` (or a
box around it) is wider than its box, unless that box is a deliberate
horizontal scroller a screen reader can name (``overflow-x`` auto or scroll
and an ``aria-label``), or when a text is cut off with an ellipsis.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db.models import Count
from django.test import Client
from django.utils import translation

from competition.management.commands.demo_tournament import DEMO_SLUG
from games.models import Game
from people.models import Person
from ratings.services import ratings_recompute
from season.models import Series
from signup.models import SignUp
from signup.services.consent_links import consent_token
from signup.services.links import signup_token
from tests.security.public_urls import get_urls
from tournament.models import Pair, Round, Tournament

pytestmark = pytest.mark.slow

SIZES = [(360, 740), (390, 844)]
QUALIFIER_SLUG = "kvalifikation-nord-2026"  # the demo season's first qualifier, played out

# Values the demo has no object for: the page a visitor reaches with a link that
# is no longer good (an invitation, a password reset) is walked instead.
NOT_IN_THE_DEMO = {
    "invitation_token": "a-link-that-expired",
    "uidb64": "MQ",
    "reset_token": "a-link-that-expired",
    "code": "en",
}
# Whose page for such a link is the "not found" page.
GONE = {"accounts:invitation"}

# Runs in the page (tests/e2e/js/).
OVERFLOWS_JS = (Path(__file__).parent / "js" / "overflows.js").read_text()


def _demo_values() -> dict[str, list[dict[str, Any]]]:
    """For each event-bound parameter set, the values the walk fills in."""
    events = list(Tournament.objects.filter(published=True).order_by("pk"))
    assert len(events) >= 3, "the demo has its event and its season's qualifiers"
    by_event: dict[str, list[dict[str, Any]]] = {"event": [], "round": [], "table": []}
    by_event.update(game=[], pair=[], finished_table=[])
    for event in events:
        by_event["event"].append({"slug": event.slug})
        rounds = list(event.rounds.exclude(status=Round.Status.DRAFT).order_by("number"))
        for round_ in rounds:
            by_event["round"].append({"slug": event.slug, "number": round_.number})
        game = Game.objects.filter(round__in=rounds).order_by("-round__number", "table_number")
        if game.exists():
            latest = game.first()
            by_event["table"].append(
                {"slug": event.slug, "round_number": latest.round.number,
                 "table_number": latest.table_number}
            )  # fmt: skip
        played = game.filter(status=Game.Status.FINISHED).first()
        if played is not None:
            by_event["game"].append({"slug": event.slug, "game_id": played.pk})
            by_event["finished_table"].append(
                {"slug": event.slug, "round_number": played.round.number,
                 "table_number": played.table_number}
            )  # fmt: skip
        pairs = Pair.objects.filter(tournament=event).select_related("player_1", "player_2")
        if pairs:
            longest = max(pairs, key=lambda p: len(f"{p.name}{p.player_1.name}{p.player_2.name}"))
            by_event["pair"].append({"slug": event.slug, "start_number": longest.start_number})
    return by_event


def _fill(values: dict[str, list[dict[str, Any]]]) -> Any:
    signup = SignUp.objects.order_by("pk").first()
    player = (
        Person.objects.filter(publish_consent=True)
        .annotate(n=Count("players"))
        .order_by("-n", "pk")
        .first()
    )
    assert signup is not None and player is not None
    single = {
        "season": [s.slug for s in Series.objects.order_by("pk")],
        "player_id": [player.pk],
        "signup_token": [signup_token(signup=signup)],
        "consent_token": [consent_token(signup=signup)],
        **{key: [value] for key, value in NOT_IN_THE_DEMO.items()},
    }

    def fill(name: str, names: set[str]) -> list[dict[str, Any]]:
        if name.startswith("api:") and names:
            return []  # the API's answers about an object are JSON, not pages
        if name.startswith("games:replay"):
            return values["finished_table"]  # only a finished game has a replay
        for group, keys in (
            ("game", {"slug", "game_id"}), ("table", {"slug", "round_number", "table_number"}),
            ("round", {"slug", "number"}), ("pair", {"slug", "start_number"}), ("event", {"slug"}),
        ):  # fmt: skip
            if keys <= names:
                rest = names - keys
                return [{**v, **{k: single[k][0] for k in rest}} for v in values[group]]
        if not names:
            return [{}]
        if len(names) == 1:  # one parameter outside an event: each of its values
            (key,) = names
            return [{key: value} for value in single[key]]
        return [{key: single[key][0] for key in names}]

    return fill


def _pages(client: Client) -> list[str]:
    """Every public address of the demo that answers with an HTML page."""
    pages, broken = [], []
    for name, url, _kwargs in get_urls(_fill(_demo_values()), access={"public"}):
        response = client.get(url)
        if not response.get("Content-Type", "").startswith("text/html"):
            continue
        if response.status_code == 200 or (response.status_code == 404 and name in GONE):
            pages.append(url)
        elif response.status_code not in (301, 302):
            broken.append(f"{name} {url}: {response.status_code}")
    assert not broken, "public pages the demo should show:\n" + "\n".join(broken)
    return pages


def _device(browser: Any, width: int, height: int) -> Any:
    return browser.new_context(
        locale="da-DK", timezone_id="Europe/Copenhagen",
        viewport={"width": width, "height": height}, is_mobile=width < 640, has_touch=width < 640,
    )  # fmt: skip


def _inside(page: Any, selector: str) -> bool:
    """The element is shown and within the viewport's width."""
    box = page.locator(selector).bounding_box()
    return (
        box is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    )


def _phone_layouts(browser: Any, base: str) -> None:
    """What a player reads on a 390 px phone: a card per table with both pairs, their
    colours, the first dealer and the result; the tiebreaks one tap away; the bracket's
    rounds one under the other. A desktop keeps the standings' full table."""
    played = Game.objects.get(round__tournament__slug=DEMO_SLUG, round__number=1, table_number=1)
    context = _device(browser, 390, 844)
    page = context.new_page()
    page.goto(f"{base}/tournaments/{DEMO_SLUG}/rounds/1/")
    # Each cell as read on the card: its label (drawn by CSS) and its text.
    cells = page.locator("#table-1 td").evaluate_all(
        "tds => tds.map(td => getComputedStyle(td, '::before').content + ' ' + td.innerText)"
    )
    text = "\n".join(cells)
    for shown in (played.pair_yb.display_name, played.pair_rg.display_name, "Gul/Blå", "Rød/Grøn"):
        assert shown in text, shown
    with translation.override("da"):
        dealer, winner = str(played.get_first_dealer_display()), str(played.get_winner_display())
    assert "Giver først" in cells[3] and dealer in cells[3]
    assert "Resultat" in cells[4] and winner in cells[4]
    for cell in range(5):
        assert _inside(page, f"#table-1 td >> nth={cell}")
    page.goto(f"{base}/tournaments/{DEMO_SLUG}/standings/")
    row = page.locator("table.standings tbody tr").first
    assert row.locator("td.tb").first.is_hidden() and row.locator("dl").is_hidden()
    row.locator("summary").tap()
    assert row.locator("dl").is_visible() and "Buchholz" in row.locator("dl").inner_text()
    page.goto(f"{base}/tournaments/{QUALIFIER_SLUG}/bracket/")
    first, final = (page.locator(".bracket-round").nth(i).bounding_box() for i in (0, 1))
    assert final["y"] >= first["y"] + first["height"] and _inside(page, ".bracket-round >> nth=1")
    context.close()
    desktop = _device(browser, 1280, 900)
    page = desktop.new_page()
    page.goto(f"{base}/tournaments/{DEMO_SLUG}/standings/")
    assert page.locator("table.standings th.tb").first.is_visible()
    assert page.locator("table.standings td.more").first.is_hidden()
    desktop.close()


def test_every_public_page_of_the_demo_fits_a_phone(browser, live_server, transactional_db):
    call_command("demo_tournament", verbosity=0)
    call_command("demo_season", verbosity=0)
    ratings_recompute()  # what the worker does after the results: the rating pages fill
    pages = _pages(Client())
    assert len(pages) > 30
    _phone_layouts(browser, live_server.url)
    problems = []
    for width, height in SIZES:
        context = _device(browser, width, height)
        page = context.new_page()
        for url in pages:
            page.goto(live_server.url + url)
            page.wait_for_load_state("load")
            found = page.evaluate(OVERFLOWS_JS)
            if found:
                problems.append(f"{width}×{height} {url}: " + "; ".join(found))
        context.close()
    assert not problems, f"{len(problems)} pages do not fit:\n" + "\n".join(problems)
