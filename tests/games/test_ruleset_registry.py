"""A new ruleset goes in one place, the engine's registry, and is offered everywhere.

The fixture registers a toy ruleset (dm2023's rules under another name) the
way docs/engine.md says a new one is added; the tests find it in the event's
choices (model, form, API input and the API schema), its validators, printing
and the table device's ruleset data, without touching any of them. A second
toy (DUO's rules under another name) finds every DUO fact a page, a judge's
entry, the time-out rule or a game's seats needs in its variant, not in a
comparison with the name "duo".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import translation
from drf_spectacular.generators import SchemaGenerator

from competition.forms import TournamentForm
from competition.serializers import TournamentUpdateInputSerializer
from core.ruleset_field import ruleset_choices
from games.engine import (
    DM2023,
    DUO,
    VARIANTS,
    DuoVariant,
    PartnersVariant,
    Variant,
    adjudicate,
    format_judge_entry,
    initial_position,
    parse_judge_entry,
    register_variant,
    replay,
    selfplay_game,
    void_check,
)
from games.ruleset_js import ruleset_js
from games.selectors import game_players
from games.services.tokens import game_token
from judging.selectors_timeout import timeout_proposal
from printing.timeline import record_timeline
from tests.factories import GameFactory, judge_of
from tournament.models import Tournament, singles_rulesets
from tournament.validators import SETTING_VALIDATORS

TOY = dataclasses.replace(DM2023, name="toy", label_en="Toy rules", label_da="Legetøjsregler")
TOY_DUO = dataclasses.replace(DUO, name="toyduo", label_en="Toy DUO", label_da="Legetøjs-DUO")


@pytest.fixture
def toy() -> Iterator[Variant]:
    variant = register_variant(PartnersVariant(TOY))
    yield variant
    del VARIANTS["toy"]


@pytest.fixture
def toy_duo() -> Iterator[Variant]:
    variant = register_variant(DuoVariant(TOY_DUO))
    yield variant
    del VARIANTS["toyduo"]


def _ruleset_enums(schema: object) -> list[list[str]]:
    """Every enum of the schema that lists dm2023 (the ruleset fields' choices)."""
    if isinstance(schema, dict):
        own = [schema["enum"]] if "dm2023" in schema.get("enum", []) else []
        return own + [e for value in schema.values() for e in _ruleset_enums(value)]
    if isinstance(schema, list):
        return [e for value in schema for e in _ruleset_enums(value)]
    return []


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


def test_the_api_schema_lists_it(toy):
    enums = _ruleset_enums(SchemaGenerator().get_schema(request=None, public=True))
    assert enums and all(enum == list(VARIANTS) for enum in enums)
    assert "toy" in enums[0]


def test_the_engine_reads_its_judge_entries_and_times_it_out_through_its_variant(toy_duo):
    entry = parse_judge_entry("! P2 R RO7", TOY_DUO)
    assert (entry.duo, format_judge_entry(entry)) == (True, "! P2 R RO7")
    assert adjudicate(initial_position(TOY_DUO), TOY_DUO)["rule"] == "W2"
    record = selfplay_game(5, TOY_DUO, first_dealer="Y")
    assert replay(record).ok
    assert void_check(record, [len(record["moves"])]) == []


@pytest.mark.django_db
def test_its_games_and_pages_take_its_facts(toy_duo):
    game = GameFactory(round__tournament__ruleset="toyduo", round__tournament__slug="toy-duo")
    tournament = game.round.tournament
    assert list(game_players(game=game)) == ["Y", "R"]
    assert timeout_proposal(game=game).rule == "W2"
    # The pages speak Danish, the site's language.
    table = Client().get(f"/t/{game_token(game=game)}/").content.decode()
    hall = Client().get("/tournaments/toy-duo/hall/").content.decode()
    judge = Client()
    judge.force_login(judge_of(tournament))
    review = judge.get(f"/tournaments/toy-duo/judge/games/{game.pk}/").content.decode()
    assert 'placeholder="5: YK3+5"' in table and "Gul bekræfter" in table
    assert 'name="orientation" value="B"' not in table
    assert "x/6" in hall and "x/8" not in hall and 'data-singles="1"' in hall
    stream = Client().get("/tournaments/toy-duo/stream/").content.decode()
    assert '"singles": true' in stream and '"board": "duo"' in stream
    assert "f.eks. YK=YKH,YKH,YK3 RK=RKH,RKH,RKS YO=… RO=…" in review
    assert "(f.eks. RO7)" in review and "(f.eks. 5: YK3+5)" in review


@pytest.mark.django_db
def test_printed_documents_take_its_seats_and_pawns(toy_duo):
    """The score sheet and the pairings list of its event draw its table: the seats of
    each side and the pawns a side brings come from the registry, not from DUO."""
    from printing.data import pairings_data, score_sheets_data
    from printing.documents import build_score_sheets
    from printing.documents.types import TableKind
    from tests.printing.documents.samples import sheet
    from tests.printing.pdf_tools import pdf_text

    game = GameFactory(round__tournament__ruleset="toyduo", pair_yb__player_2=None)
    game.pair_rg.player_2 = None
    game.pair_rg.save()
    [data] = score_sheets_data(round=game.round, games=[game])
    assert data.seating == TableKind.of(TOY_DUO) and data.singles
    assert data.seating.seats == ("Y", "R")
    assert pairings_data(round=game.round).seating.seats_of("RG") == ("R",)
    five = TableKind.of(dataclasses.replace(TOY_DUO, pawns_per_side=5))
    text = pdf_text(build_score_sheets([sheet(seating=five)], lang="en"))
    assert "Locked pawns (0–5)" in text and "(0–6)" not in text and "(0–8)" not in text
