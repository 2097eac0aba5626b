"""Rule texts per ruleset: the review shows the game's ruleset's own text for the
disputed rule id, and nothing for an id its reading lacks.

rulebook and fr are written as differences from RULES.md (docs/rulesets/
rulebook.md, fr.md "Summary: which RULES.md ids"): an unchanged id keeps
RULES.md's text in both languages, a replaced or new id has the reading's
English, an id that does not apply has none. DUO's ids are its own
(docs/rulesets/duo.md), in English.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games.engine import get_ruleset, selfplay_game
from judging.rules_text import RULES_HTML
from judging.selectors_review import rule_html, rule_language, rule_text
from tests.factories import GameFactory, judge_of
from tests.judging.conftest import log_moves

ENGLISH_ONLY_NOTE_DA = "Dette regelsæts læsning findes kun på engelsk"


def test_rulebook_unchanged_ids_keep_rules_md_in_both_languages():
    # rulebook.md summary: S1, C2, P1 and J2 are unchanged.
    for rule in ("S1", "C2", "P1", "J2"):
        assert RULES_HTML["rulebook"][rule] == RULES_HTML["dm2023"][rule], rule


def test_rulebook_replaced_and_new_ids_have_the_readings_english_only():
    swap = RULES_HTML["rulebook"]["C9"]  # C9 (replaces) Swap (Joker)
    assert set(swap) == {"en"}
    assert swap["en"].startswith("<p><strong>Swap (Joker).</strong>")
    assert swap["en"] != RULES_HTML["dm2023"]["C9"]["en"]
    assert "60 spaces" in RULES_HTML["rulebook"]["B1"]["en"]  # B1 (replaces)
    assert "(replaces)" not in RULES_HTML["rulebook"]["B2"]["en"]
    assert set(RULES_HTML["rulebook"]["B6"]) == {"en"}  # B6 (new) Own 0 and own 15


def test_an_id_that_does_not_apply_or_a_reading_lacks_shows_nothing():
    # rulebook and fr: F6 does not apply; DUO has no penalties P1–P5 nor N.
    assert "F6" not in RULES_HTML["rulebook"] and "F6" not in RULES_HTML["fr"]
    assert rule_html("F6") and rule_html("F6", ruleset="rulebook") == ""
    assert rule_text("F6", ruleset="fr") == "" and rule_language("F6", ruleset="fr") == ""
    assert rule_html("P1", ruleset="duo") == "" and rule_html("N", ruleset="duo") == ""
    assert rule_html("C9", ruleset="no-such-ruleset") == ""


def test_fr_replaced_and_new_ids_and_its_unchanged_swap():
    assert "FR has no time limit" in RULES_HTML["fr"]["W2"]["en"]  # W2 (replaces)
    assert "Échange" in RULES_HTML["fr"]["D8"]["en"]  # D8 (new)
    assert RULES_HTML["fr"]["P1"] == RULES_HTML["fr"]["P2"]  # "P1, P2 (replaced)"
    assert set(RULES_HTML["fr"]["P1"]) == {"en"}
    assert RULES_HTML["fr"]["C9"] == RULES_HTML["dm2023"]["C9"]  # C9 unchanged


def test_duo_has_its_own_ids_in_english():
    duo = RULES_HTML["duo"]
    assert {"S1", "C5", "D3", "W2"} <= set(duo) and all(set(t) == {"en"} for t in duo.values())
    assert "<strong>9 / swap</strong>" in duo["C5"]["en"]  # DUO C5 is the 9, not C5 of RULES.md
    assert "six pawns" in duo["S2"]["en"]


def test_an_english_only_text_is_marked_english_under_a_danish_note():
    with translation.override("da"):
        html = rule_html("C9", ruleset="rulebook")
        assert ENGLISH_ONLY_NOTE_DA in html
        assert f'<div lang="en">{RULES_HTML["rulebook"]["C9"]["en"]}</div>' in html
        assert rule_text("C9", ruleset="rulebook").startswith("Swap (Joker).")
        assert rule_language("C9", ruleset="rulebook") == "en"
        assert rule_language("C2", ruleset="rulebook") == "da"
        assert rule_html("C2", ruleset="rulebook").startswith("<p>")
    with translation.override("en"):
        assert rule_html("C9", ruleset="rulebook") == RULES_HTML["rulebook"]["C9"]["en"]


# --- the review -------------------------------------------------------------------


def _first_entry_with(record, card):
    return next(i for i, m in enumerate(record["moves"]) if f" {card}:" in m) + 1


def _review(client, game, at, language="da"):
    client.cookies["django_language"] = language
    page = client.get(
        reverse("judging:review", args=[game.round.tournament.slug, game.pk]) + f"?at={at}"
    )
    data = client.get(f"/api/judging/games/{game.pk}/review/?at={at}").json()
    box = page.content.decode().split('id="rule-text"')[1].split('<div class="rule-box"')[0]
    return box, data["entry"]


@pytest.mark.django_db
def test_review_of_a_dm2023_swap_shows_rules_md_in_danish(client, game, judge, record):
    at = _first_entry_with(record, "J")
    log_moves(game, record["moves"][:at])
    client.force_login(judge)
    box, entry = _review(client, game, at)
    assert entry["rule"] == "C9" and entry["rule_language"] == "da"
    assert entry["rule_text"].startswith("Byttekortet J")
    assert "<strong>Byttekortet <code>J</code></strong>" in box and 'lang="en"' not in box


@pytest.mark.django_db
def test_review_of_a_rulebook_swap_shows_the_rulebooks_english_reading(client):
    game = GameFactory(first_dealer="Y", round__tournament__ruleset="rulebook")
    record = selfplay_game(11, get_ruleset("rulebook"), first_dealer="Y")
    at = _first_entry_with(record, "J")
    log_moves(game, record["moves"][:at])
    client.force_login(judge_of(game.round.tournament, "dommer"))
    box, entry = _review(client, game, at)
    assert entry["rule"] == "C9" and entry["rule_language"] == "en"
    assert entry["rule_text"].startswith("Swap (Joker).")
    assert ENGLISH_ONLY_NOTE_DA in box and '<div lang="en"><p><strong>Swap (Joker).' in box
    assert "Byttekortet" not in box
    box, entry = _review(client, game, at, language="en")
    assert "<strong>Swap (Joker).</strong>" in box and ENGLISH_ONLY_NOTE_DA not in box
    assert "The swap card" not in box  # not RULES.md's C9


@pytest.mark.django_db
def test_review_of_a_duo_entry_shows_the_duo_rule_of_its_card(client):
    game = GameFactory(duo=True, first_dealer="Y")
    record = selfplay_game(3, get_ruleset("duo"), first_dealer="Y")
    log_moves(game, record["moves"][:12])
    client.force_login(judge_of(game.round.tournament, "duodommer"))
    at = next(i for i, m in enumerate(record["moves"][:12], 1) if " X:" not in m)
    box, entry = _review(client, game, at)
    rule = entry["rule"]
    assert rule == get_ruleset("duo").card_rule(entry["card"])
    duo_text = RULES_HTML["duo"][rule]["en"]
    assert entry["rule_language"] == "en" and entry["rule_html"].endswith(f"{duo_text}</div>")
    assert f'<div lang="en">{duo_text}</div>' in box
    assert RULES_HTML["dm2023"][rule]["da"] not in box


@pytest.mark.django_db
def test_the_rulings_page_of_a_rulebook_event_shows_the_rulebooks_text(client):
    game = GameFactory(round__tournament__ruleset="rulebook")
    client.force_login(judge_of(game.round.tournament, "regeldommer"))
    url = reverse("judging:rulings", args=[game.round.tournament.slug])
    html = client.get(f"{url}?rule=C9").content.decode()
    assert ENGLISH_ONLY_NOTE_DA in html and "<strong>Swap (Joker).</strong>" in html
    assert "Byttekortet" not in html  # RULES.md's C9 is not the rulebook's
