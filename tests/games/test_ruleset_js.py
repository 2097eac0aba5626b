"""The table device's ruleset data (static/js/table/ruleset_data.js) is the engine's registry."""

from __future__ import annotations

import json

from django.core.management import call_command

from games.engine import VARIANTS
from games.ruleset_js import RULESET_JS, ruleset_js


def test_the_ruleset_data_in_the_tree_is_the_one_the_registry_generates():
    # Stale after a change to a ruleset's facts: run `python manage.py ruleset_js` (make migrate).
    assert RULESET_JS.read_text(encoding="utf-8") == ruleset_js()
    call_command("ruleset_js", "--check")


def test_the_data_holds_every_rulesets_facts():
    text = ruleset_js()
    data = json.loads(
        text[text.index("{", text.index("RULESETS")) : text.rindex(";")].replace(",\n}", "\n}")
    )
    assert list(data) == list(VARIANTS)
    assert data["duo"]["seats"] == ["Y", "R"] and data["duo"]["split"] == "4"
    assert (
        data["dm2023"]["enter"] == ["8", "11", "13"] and data["dm2023"]["rules"]["timeUp"] == "W3"
    )
    assert data["duo"]["colours"] == ["YK", "RK", "YO", "RO"]
