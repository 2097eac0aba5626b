"""The API documentation page works under the site's own Content-Security-Policy."""

from __future__ import annotations


def test_api_docs_render_without_breaking_the_csp(page, live_server):
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .opblock")
    page.locator(".swagger-ui .opblock-summary").first.click()
    page.wait_for_selector(".swagger-ui .opblock-body")
    assert page.locator("link[rel=icon]").get_attribute("href").endswith("favicon.svg")
    assert not [p for p in problems if "Content Security Policy" in p], problems
