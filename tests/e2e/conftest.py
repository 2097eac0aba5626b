"""Browser tests: Playwright (from PyPI) driving Debian's chromium, headless.

No browser is downloaded: the executable is /usr/bin/chromium (or
``CHROMIUM_PATH``). Without it the tests are skipped, except in CI
(``CI_REQUIRE_BROWSER``), where a missing browser fails the run.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM
# calls made by the test itself (setting up data) are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless=new",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI_REQUIRE_BROWSER"):
            pytest.fail(f"chromium not found at {CHROMIUM}")
        pytest.skip("Debian chromium not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def context(browser):  # type: ignore[no-untyped-def]
    ctx = browser.new_context(locale="da-DK", timezone_id="Europe/Copenhagen")
    ctx.set_default_timeout(10_000)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context):  # type: ignore[no-untyped-def]
    return context.new_page()


def login(page, live_server, username: str, password: str = "pw-for-tests") -> None:  # type: ignore[no-untyped-def]
    """Log in through the real login form."""
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form.form button[type=submit]")
    page.wait_for_load_state("networkidle")
