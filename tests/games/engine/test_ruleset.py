"""Ruleset settings (RULES C1, D2, W3 decisions)."""

import dataclasses

import pytest

from games.engine import DM2023, Ruleset, get_ruleset


def test_get_ruleset_dm2023():
    assert get_ruleset("dm2023") is DM2023
    assert isinstance(DM2023, Ruleset)


def test_unknown_ruleset_is_value_error():
    with pytest.raises(ValueError):
        get_ruleset("nosuch")


def test_c1_deck_composition_is_a_setting():
    assert DM2023.deck_size == 56
    assert all(DM2023.copies(c) == 4 for c, _ in DM2023.deck)
    assert DM2023.hand_size == 4 and DM2023.penalty_hand_size == 3
    assert DM2023.deals_per_dealer == 3
    assert DM2023.opener == "left_of_dealer"
    assert DM2023.adjudication == "distance"


def test_ruleset_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        DM2023.name = "x"  # type: ignore[misc]
