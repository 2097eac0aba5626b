"""The table device's service worker (/t/sw.js): what it keeps, and its version."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games import offline

pytestmark = pytest.mark.django_db

TABLE_JS = Path(settings.BASE_DIR) / "static" / "js" / "table"


def manifest_of(res):  # type: ignore[no-untyped-def]
    found = re.search(r"^const MANIFEST = (.*);$", res.content.decode(), re.MULTILINE)
    assert found, "the worker carries its manifest"
    return json.loads(found.group(1))


def test_the_worker_is_served_for_the_table_scope_as_a_script():
    res = Client().get("/t/sw.js")
    assert res.status_code == 200
    assert res["Content-Type"].startswith("text/javascript")
    assert res["Cache-Control"] == "no-cache"  # a deploy's new version is seen at the next visit
    # Served from /t/: its scope covers every table page with no extra header.
    assert "Service-Worker-Allowed" not in res
    # The site's CSP (no worker-src of its own: script-src 'self' lets a same-origin worker run).
    assert "script-src 'self'" in res["Content-Security-Policy"]
    assert Client().post("/t/sw.js").status_code == 405


def test_the_worker_keeps_every_file_the_table_page_loads():
    assets = set(manifest_of(Client().get("/t/sw.js"))["assets"])
    for module in TABLE_JS.glob("*.js"):
        assert f"/static/js/table/{module.name}" in assets, module.name
    for name in (
        "js/board.js",
        "js/poller.js",
        "js/clock.js",
        "js/judge_call.js",
        "css/site.css",
        "css/games.css",
    ):
        assert f"/static/{name}" in assets
    # Static files only: never a page, never the API.
    assert all(a.startswith("/static/") for a in assets)


def test_every_static_file_of_the_table_page_is_in_the_worker(game, token):
    html = Client().get(f"/t/{token}/").content.decode()
    loaded = set(re.findall(r'(?:src|href)="(/static/[^"]+)"', html))
    assets = set(manifest_of(Client().get("/t/sw.js"))["assets"])
    assert loaded and loaded <= assets


def test_a_changed_file_changes_the_version(monkeypatch):
    before = offline.offline_manifest()
    read = offline._read
    monkeypatch.setattr(
        offline, "_read", lambda name: read(name) + (b"//" if name.endswith("sync.js") else b"")
    )
    after = offline.offline_manifest()
    assert after["assets"] == before["assets"]
    assert after["version"] != before["version"]
    monkeypatch.setattr(offline, "_read", read)
    assert offline.offline_manifest()["version"] == before["version"]


def test_the_table_page_names_its_worker_and_is_marked_as_the_servers(game, token):
    html = Client().get(f"/t/{token}/").content.decode()
    config = json.loads(
        re.search(r'id="table-config" type="application/json">(.*?)</script>', html).group(1)
    )
    assert config["worker_url"] == "/t/sw.js"
    # The worker's kept copy turns this into "kept" (its state then yields to the one stored since).
    assert html.count('data-page="server"') == 1
    assert (
        'data-page="server"' in Path(settings.BASE_DIR, "templates/games/table_sw.js").read_text()
    )
