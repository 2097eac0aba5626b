"""A new ruleset goes in one place, the engine's registry, and is offered everywhere.

The fixture registers a toy ruleset (dm2023's rules under another name) the
way docs/engine.md says a new one is added; the tests find it in the event's
choices (model, form, API input), its validators, printing and the table
device's ruleset data, without touching any of them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from competition.forms import TournamentForm
from competition.serializers import TournamentUpdateInputSerializer
from games.engine import (
    DM2023,
    VARIANTS,
    PartnersVariant,
    Variant,
    register_variant,
    replay,
    selfplay_game,
)
from games.ruleset_js import ruleset_js
from printing.timeline import record_timeline
from tournament.models import Tournament, ruleset_choices, singles_rulesets
from tournament.validators import SETTING_VALIDATORS

TOY = dataclasses.replace(DM2023, name="toy", label_en="Toy rules", label_da="Legetøjsregler")


@pytest.fixture
def toy() -> Iterator[Variant]:
    variant = register_variant(PartnersVariant(TOY))
    yield variant
    del VARIANTS["toy"]


def test_the_model_offers_it_in_both_languages(toy):
    field = Tournament._meta.get_field("ruleset")
    with translation.override("en"):
        assert ("toy", "Toy rules") in list(field.choices)
        assert Tournament(ruleset="toy").get_ruleset_display() == "Toy rules"
    with translation.override("da"):
        assert ("toy", "Legetøjsregler") in ruleset_choices()
    assert not Tournament(ruleset="toy").is_singles
    assert Tournament(ruleset="toy").seats == ("Y", "R", "B", "G")
    assert "toy" not in singles_rulesets()


def test_the_settings_form_and_the_api_take_it(toy):
    form = TournamentForm()
    assert "toy" in [value for value, _label in form.fields["ruleset"].choices]
    for check in SETTING_VALIDATORS["ruleset"]:
        check("toy")
    assert TournamentUpdateInputSerializer(data={"ruleset": "toy"}).is_valid()


def test_without_it_the_same_checks_refuse_it():
    with pytest.raises(ValidationError):
        for check in SETTING_VALIDATORS["ruleset"]:
            check("toy")
    assert not TournamentUpdateInputSerializer(data={"ruleset": "toy"}).is_valid()
    assert "toy" not in [value for value, _label in TournamentForm().fields["ruleset"].choices]


def test_the_engine_plays_it_and_printing_reads_it(toy):
    record = selfplay_game(3, TOY, first_dealer="Y")
    assert record["ruleset"] == "toy"
    assert replay(record).ok
    _entries, diagrams, checked = record_timeline(record, lang="en")
    assert checked == len(record["moves"]) and diagrams


def test_the_table_device_data_holds_it(toy):
    text = ruleset_js()
    assert '"toy": {"name": "toy", "label": {"en": "Toy rules", "da": "Legetøjsregler"}' in text
