"""Every page is reachable by links from its user's home.

For each role (a player without login, a judge, an organiser) a crawler
starts where that person starts (the front page; for staff the login form,
whose answer lands on their role home) and follows every ``<a href>`` of
every page it reaches, as a person tapping links would. Then, for every URL
name in the URL configuration that the permission policy lets this role
open with GET, the crawler must have reached it, unless it is listed below
with the reason a person does not get there by a link. A new page without
a link to it fails here.
"""

from __future__ import annotations

from collections import Counter, deque
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.test import Client
from django.urls import Resolver404, resolve, reverse

from ratings.services import ratings_recompute
from tests.security.policy import ALLOWED, POLICY
from tests.security.world import World, build_world
from tournament.models import Tournament

# Opened without a link, on purpose.
NOT_LINKED = {
    "health": "for the uptime monitor, not a person",
    "games:table": "a table's own page is opened from the QR code on its score sheet",
    "games:table-worker": "the table page's service worker, registered by its script",
    "printing:job_progress": "JSON the print page's script polls",
    "language_switch": "the language link on every page (not followed: it only sets a cookie)",
    "signup:own": "a pair's private sign-up link, sent by email and shown once after signing up",
    "accounts:setup": "only while the server has no account: the terminal prints its address",
    "accounts:invitation": "an invitation's one-time link, shown to the organiser and emailed",
    "accounts:password_reset_confirm": "the reset link emailed to the account's address",
    "accounts:password_reset_sent": "the answer to the reset form (a POST)",
    "accounts:password_reset_complete": "the answer to the new-password form (a POST)",
    "accounts:staff_accounts": "staff only (no staff crawl here): linked from their My account "
    "page (tests/accounts/test_pages.py)",
    "signup:consent": "the confirmation link to publish a sign-up's names, sent by email",
    "tournament:stream_feed": "JSON the stream overlay polls",
    "tournament:stream_overlay": "a page for the streaming tool's browser source: the organiser "
    "copies its address from the round page",
}
# Pages that exist for a role but that a signed-in person has no reason to open again.
SIGNED_IN_SKIP = {
    "login": "already signed in",
    "accounts:password_reset": "signed in: My account changes the password",
}

ROLES = {"player": "anon", "judge": "judge", "organiser": "organiser"}
VISITS_PER_PAGE = 3  # enough to prove a link; keeps the crawl small (every pair, every entry)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)


def _name(path: str) -> str | None:
    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return None
    return f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name


def _follow(href: str) -> bool:
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return False
    return not parts.path.startswith(("/static/", "/admin/", "/lang/", "/api/", "/logout/"))


def crawl(client: Client, start: str) -> dict[str, str]:
    """URL name -> the first path by which the crawler reached it."""
    reached: dict[str, str] = {}
    visits: Counter[str] = Counter()
    queue, seen = deque([start]), set()
    while queue:
        path = queue.popleft()
        name = _name(path)
        if path in seen or name is None or visits[name] >= VISITS_PER_PAGE:
            continue
        seen.add(path)
        visits[name] += 1
        response = client.get(path)
        if response.status_code in (301, 302):
            reached.setdefault(name, path)
            queue.append(urljoin(path, response["Location"]))
            continue
        if response.status_code != 200:
            continue
        reached.setdefault(name, path)
        if response.get("Content-Type", "").startswith("text/html"):
            links = _Links()
            links.feed(response.content.decode())
            for href in links.hrefs:
                if href.startswith("#"):
                    continue
                absolute = urljoin(path, href).split("#", 1)[0]
                if _follow(absolute) and "?at=" not in absolute:
                    queue.append(absolute)
    return reached


def expected_pages(role: str) -> set[str]:
    """Every non-API URL name the policy lets ``role`` open with GET."""
    pages = {
        name
        for name, methods in POLICY.items()
        if not name.startswith("api:")
        and "GET" in methods
        and ROLES[role] in ALLOWED[methods["GET"]]
    }
    pages -= set(NOT_LINKED)
    if role != "player":
        pages -= set(SIGNED_IN_SKIP)
    return pages


@pytest.fixture
def world(db, settings, tmp_path) -> World:
    settings.MEDIA_ROOT = tmp_path
    world = build_world(tmp_path)
    # The main event has a knockout planned, so its bracket page is part of it.
    Tournament.objects.filter(pk=world.main.pk).update(knockout_size=4)
    # Ratings as the worker keeps them after each result: the rating list links players.
    ratings_recompute()
    return world


def _start(world: World, role: str) -> Client:
    client = Client()
    if role != "player":
        user = world.users[ROLES[role]]
        response = client.post(
            reverse("login"), {"username": user.username, "password": "pw-for-tests"}
        )
        assert response.status_code == 302, "the login form did not sign in"
    return client


@pytest.mark.parametrize("role", sorted(ROLES))
def test_every_page_of_a_role_is_reachable_by_links_from_its_home(world, role):
    client = _start(world, role)
    home = "/" if role == "player" else reverse("tournament:role_home")
    reached = crawl(client, home)
    missing = sorted(expected_pages(role) - set(reached))
    assert not missing, f"{role}: no link leads to {missing} (reached: {sorted(reached)})"


def test_every_url_is_a_page_of_some_role_or_not_linked_for_a_reason():
    pages = set().union(*(expected_pages(role) for role in ROLES))
    get_pages = {
        name for name, methods in POLICY.items() if "GET" in methods and not name.startswith("api:")
    }
    unexplained = sorted(get_pages - pages - set(NOT_LINKED))
    assert not unexplained, f"pages no role can reach and no reason given: {unexplained}"
