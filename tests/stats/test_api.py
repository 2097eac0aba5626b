"""The ratings and statistics API: in the schema, consent respected."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
import yaml
from django.core.management import call_command

from tests.stats.test_pages import event  # noqa: F401 - the fixture


def test_every_endpoint_is_in_a_valid_schema(tmp_path: Any) -> None:
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    paths = yaml.safe_load(out.read_text())["paths"]
    for path in (
        "/api/ratings/",
        "/api/ratings/csv/",
        "/api/players/{player_id}/",
        "/api/tournaments/{slug}/seed-by-rating/",
        "/api/tournaments/{slug}/statistics/",
        "/api/tournaments/{slug}/statistics/csv/",
        "/api/seasons/{season}/statistics/",
    ):
        assert path in paths, path


def test_ratings_list_only_consenting_players(client: Any, event: dict[str, Any]) -> None:  # noqa: F811
    rows = client.get("/api/ratings/").json()
    assert {r["name"] for r in rows} == {"Anna", "Bo"}
    assert rows[0]["rating"] == pytest.approx(rows[0]["mu"] - 3 * rows[0]["sigma"], abs=1e-3)
    text = client.get("/api/ratings/csv/").content.decode().lstrip("\ufeff")
    names = [r["player"] for r in csv.DictReader(io.StringIO(text), delimiter=";")]
    assert sorted(names) == ["Anna", "Bo"]


def test_a_player_only_with_consent(client: Any, event: dict[str, Any]) -> None:  # noqa: F811
    anna, carl = event["public"][0], event["private"][0]
    data = client.get(f"/api/players/{anna.pk}/").json()
    assert data["name"] == "Anna" and data["games"] == 1 and data["wins"] == 1
    assert [h["game_id"] for h in data["history"]] == [event["game"].pk]
    assert {c: n for c, n in data["cards"].items() if n} == {"8": 1, "4": 1, "11": 2}
    assert client.get(f"/api/players/{carl.pk}/").status_code == 404


def test_tournament_statistics(client: Any, event: dict[str, Any]) -> None:  # noqa: F811
    data = client.get(f"/api/tournaments/{event['tournament'].slug}/statistics/").json()
    assert data["summary"]["games"] == 1 and data["summary"]["swaps"] == 1
    (game,) = data["games"]
    assert game["entries"] == 14 and len(game["distance"]) == 15
    assert game["distance"][0] == [488, 488] and game["hits_given"] == {"YB": 0, "RG": 1}
    assert game["cards_by_seat"]["B"]["J"] == 1 and game["cards_by_seat"]["Y"]["11"] == 2
    assert data["summary"]["locked_winners"] == [0.0] * 11
    csv_text = client.get(f"/api/tournaments/{event['tournament'].slug}/statistics/csv/")
    assert csv_text["Content-Type"].startswith("text/csv")
