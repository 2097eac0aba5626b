"""core.text: what the database can store, what a name may hold."""

from __future__ import annotations

import pytest

from core.errors import ApplicationError
from core.text import is_storable, name_check, text_check


def test_storable_text():
    assert is_storable("Søren Ærø — سارة — 🂡")
    assert not is_storable("a\x00b")
    assert not is_storable("a\ud800b")
    assert text_check("Tab\tand\nnewline", field="reason") == "Tab\tand\nnewline"
    with pytest.raises(ApplicationError) as refused:
        text_check("a\x00", field="reason")
    assert refused.value.code == "text_not_storable" and refused.value.status_code == 400
    assert refused.value.extra == {"field": "reason"}


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("Ali \u202eHans", "name_control_character"),
        ("\u2066Ali\u2069", "name_control_character"),
        ("Ali\nHans", "name_control_character"),
        ("Ali\x7fHans", "name_control_character"),
        ("Ali\x00", "text_not_storable"),
    ],
)
def test_names_refuse_control_and_direction_characters(name, code):
    with pytest.raises(ApplicationError) as refused:
        name_check(name, field="player_1")
    assert refused.value.code == code
    assert "player_1" in refused.value.message_en and "player_1" in refused.value.message_da


def test_names_keep_every_script_and_the_direction_marks():
    for name in ("Søren Ærø", "سارة", "\u200fדוד", "Jean-Luc O'Neill & Co <x>"):
        assert name_check(name, field="name") == name
