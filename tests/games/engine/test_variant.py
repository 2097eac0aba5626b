"""The registry of rulesets (games/engine/variant.py): facts and one API for every variant."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import (
    DM2023,
    DUO,
    RULEBOOK,
    VARIANTS,
    DuoVariant,
    PartnersVariant,
    find_variant,
    get_ruleset,
    ruleset_names,
    variant_of,
)


def test_the_registry_holds_every_ruleset_dm2023_first() -> None:
    assert list(VARIANTS) == ruleset_names() == ["dm2023", "rulebook", "fr", "duo"]
    assert all(find_variant(name).ruleset is get_ruleset(name) for name in VARIANTS)


@pytest.mark.parametrize("name", ["nosuch", "", None, ["duo"]])
def test_an_unknown_name_is_a_value_error_naming_the_known(name: object) -> None:
    with pytest.raises(ValueError, match="known: \\['dm2023', 'duo', 'fr', 'rulebook'\\]"):
        find_variant(name)  # type: ignore[arg-type]


def test_the_facts_of_a_pair_and_a_singles_ruleset() -> None:
    pairs, singles = find_variant("dm2023"), find_variant("duo")
    assert (pairs.players, pairs.singles, pairs.pawns_per_side) == (4, False, 8)
    assert (singles.players, singles.singles, singles.pawns_per_side) == (2, True, 6)
    assert singles.teams == {"YB": ("Y",), "RG": ("R",)}
    assert "11" in pairs.deck and "11" not in singles.deck
    assert (find_variant("rulebook").label("da"), find_variant("rulebook").label("en")) == (
        "Trykt regelbog",
        "Printed rulebook",
    )
    facts = singles.facts()
    assert (facts["split"], facts["swap"], facts["enter"]) == ("4", "9", ["1", "6", "8"])
    assert facts["rules"] == {"timeUp": "W2", "gameOver": "W1"}


def test_a_ruleset_with_changed_settings_keeps_its_variants_engine() -> None:
    assert variant_of(DM2023) is find_variant("dm2023")
    changed = dataclasses.replace(DM2023, adjudication="locked_then_distance")
    variant = variant_of(changed)
    assert isinstance(variant, PartnersVariant) and variant.ruleset is changed
    small = variant_of(dataclasses.replace(DUO, board_fields=10))
    assert isinstance(small, DuoVariant)
    assert small.initial_position().to_json()["YK"] == ["YKH", "YKH", "YKH"]


@pytest.mark.parametrize("name", ["dm2023", "rulebook", "fr", "duo"])
def test_every_variant_answers_the_same_calls(name: str) -> None:
    variant = find_variant(name)
    record = variant.selfplay(4, first_dealer="Y")
    assert record["ruleset"] == name and list(record["players"]) == list(variant.seats)
    result = variant.replay(record)
    assert result.ok and result.winner in ("YB", "RG")
    assert variant.replay_answer(record)["moves_checked"] == result.moves_checked
    home = variant.initial_position()
    assert variant.position_from_json(home.to_json()) == home
    state = variant.initial_state("Y")
    card, moves = next((c, m) for c, m in state.legal_entries().items() if m)
    seat = state.to_move
    assert seat is not None
    assert variant.legal_moves(home, seat, card) == moves
    position, events = variant.play(home, seat, moves[0])
    assert position != home and events == []
    assert variant.canonical_move(moves[0]) == moves[0]


def test_a_position_of_another_ruleset_is_refused() -> None:
    with pytest.raises(ValueError):
        find_variant("duo").legal_moves(find_variant("dm2023").initial_position(), "Y", "1")
    assert RULEBOOK.name in VARIANTS
