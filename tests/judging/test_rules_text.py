"""Rule texts: every rule id of RULES.md in English and Danish, rendered, in the
viewer's language (ruleset dm2023; the other rulesets' texts are in
test_rules_text_rulesets.py).
"""

from __future__ import annotations

import hashlib
import re

import pytest
from django.urls import reverse
from django.utils import translation

from judging.management.commands.judging_rules_text import (
    RULES_DIR,
    reading_sources,
    rules_build,
    rules_parse,
    shared_rules_md,
)
from judging.rules_text import RULES_HTML as RULES_HTML_BY_RULESET
from judging.rules_text import SOURCES
from judging.selectors_review import rule_html, rule_text
from judging.services.rulings import ruling_penalty
from tests.judging.conftest import log_moves

RULES_HTML = RULES_HTML_BY_RULESET["dm2023"]
RULES_MD = shared_rules_md()
needs_rules_md = pytest.mark.skipif(RULES_MD is None, reason="shared/rules/RULES.md not found")


@needs_rules_md
def test_every_rule_id_of_rules_md_has_a_text_in_both_languages():
    ids = set(rules_parse(RULES_MD.read_text()))
    assert len(ids) >= 47 and {"C9", "T4", "F6", "C7", "J2"} <= ids
    assert ids | {"N"} == set(RULES_HTML)
    for rule, texts in RULES_HTML.items():
        assert set(texts) == {"en", "da"}, rule
        assert texts["en"].strip() and texts["da"].strip(), rule


@needs_rules_md
def test_the_generated_module_is_up_to_date_with_its_sources():
    digests, rules = rules_build(RULES_MD)
    assert digests == SOURCES, "run manage.py judging_rules_text"
    assert rules == RULES_HTML_BY_RULESET


def test_the_repository_sources_match_the_generated_module():
    # Without ../shared this still catches a Danish text or a ruleset's reading
    # edited without regenerating.
    for name in ("RULES.da.md", "extra.en.md"):
        digest = hashlib.sha256((RULES_DIR / name).read_bytes()).hexdigest()
        assert SOURCES[f"judging/rules/{name}"] == digest, "run manage.py judging_rules_text"
    for name, path in reading_sources().items():
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        assert SOURCES[f"docs/rulesets/{name}.md"] == digest, "run manage.py judging_rules_text"
    assert set(reading_sources()) | {"dm2023"} == set(RULES_HTML_BY_RULESET)


def test_texts_are_rendered_with_no_markdown_left():
    for ruleset, rules in RULES_HTML_BY_RULESET.items():
        for rule, texts in rules.items():
            for language, html in texts.items():
                where = (ruleset, rule, language)
                assert html.startswith("<p>"), where
                visible = re.sub(r"<[^>]+>", "", html)
                assert "**" not in visible and "`" not in visible, where
                assert not re.search(r"^\s*[-|] ", visible, re.M), where
    assert "<table>" in RULES_HTML["B5"]["da"] and "<ul>" in RULES_HTML["T2"]["en"]


def test_the_danish_text_is_danish_and_the_english_english():
    assert "Byttekortet" in RULES_HTML["C9"]["da"] and "swap card" in RULES_HTML["C9"]["en"]
    assert "målcirkel" in RULES_HTML["F6"]["da"] and "finish area" in RULES_HTML["F6"]["en"]


def test_lookup_follows_the_active_language_and_unknown_ids_are_empty():
    with translation.override("da"):
        assert "<strong>Byttekortet <code>J</code></strong>" in rule_html("C9")
        assert rule_text("c9").startswith('Byttekortet J ("joker"): to brikker bytter plads.')
    with translation.override("en"):
        assert rule_text("C9").startswith("The swap card J")
    assert rule_html("Z9") == "" and rule_text("") == ""


def test_rules_parse_keeps_titles_lists_and_tables():
    text = (
        "- **T4 Start-field block.** While pawns stand on `XS`,\n"
        "  nothing passes.\n"
        "- **B5** Codes:\n"
        "  | code | meaning |\n"
        "  |---|---|\n"
        "  | `XH` | home |\n"
        "- **T2** Landing:\n"
        "  - empty → stays;\n"
        "  - one → hit.\n"
        "  (DM FAQ)\n"
        "\n"
        "Worked example, not a rule.\n"
    )
    rules = rules_parse(text)
    assert rules["T4"] == "**Start-field block.** While pawns stand on `XS`,\nnothing passes."
    table = ["", "| code | meaning |", "|---|---|", "| `XH` | home |"]
    assert rules["B5"].splitlines()[1:] == table
    assert rules["T2"].splitlines() == [
        "Landing:", "", "- empty → stays;", "- one → hit.", "", "(DM FAQ)"
    ]  # fmt: skip
    assert set(rules) == {"T4", "B5", "T2"}


def test_rules_parse_reads_a_readings_status_marks_and_shared_items():
    text = (
        "- **B2 (replaces) Every space counts.** A step onto `XS`\n"
        "  counts.\n"
        "- **S3 (replaces)** A player moves their own pawns.\n"
        "- **P1, P2 (replaced)** FR has no penalty.\n"
    )
    rules = rules_parse(text)
    assert rules["B2"] == "**Every space counts.** A step onto `XS`\ncounts."
    assert rules["S3"] == "A player moves their own pawns."
    assert rules["P1"] == rules["P2"] == "FR has no penalty."


# --- pages ------------------------------------------------------------------------


@pytest.mark.django_db
def test_review_page_shows_the_swap_card_rule_rendered_in_danish_and_english(
    client, game, judge, record
):
    moves = record["moves"]
    swap = next(i for i, m in enumerate(moves) if " J:" in m) + 1
    log_moves(game, moves[:swap])
    client.force_login(judge)
    url = reverse("judging:review", args=[game.round.tournament.slug, game.pk]) + f"?at={swap}"
    html = client.get(url).content.decode()
    box = html.split('id="rule-text"')[1].split("</div>")[0]
    assert "Regel C9" in box and "<strong>Byttekortet <code>J</code></strong>" in box
    assert "**" not in box and "`" not in box
    client.cookies["django_language"] = "en"
    english = client.get(url).content.decode()
    assert "Rule C9" in english and "<strong>The swap card <code>J</code></strong>" in english


@pytest.mark.django_db
def test_rulings_page_shows_the_rule_searched_for(client, logged, judge):
    ruling_penalty(game=logged, actor=judge, penalty="P1", seat="Y", reason="Flyttede før kortet")
    client.force_login(judge)
    url = reverse("judging:rulings", args=[logged.round.tournament.slug])
    html = client.get(f"{url}?rule=p1").content.decode()
    assert "Regel P1" in html and "får kun <strong>3 kort</strong>" in html
    assert "Flyttede før kortet" in html
