"""Every name-like field of every model refuses control, direction and invisible characters.

The fields are found by their name, so a new model (or a new name field)
without ``core.validation.OneLineName`` fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models
from rest_framework.test import APIClient

from core.errors import ApplicationError
from core.text import name_check
from season.models import Series
from tests.factories import UserFactory

NAME_LIKE = re.compile(
    r"^(name|club|venue|title|pair_name|player_\d+|first_name|last_name)$|_name$"
)
OURS = Path(settings.BASE_DIR)
REFUSED = {
    "U+202E": "Ali \u202eHans",  # right-to-left override
    "U+200B": "Ali\u200bHans",  # zero-width space
}


def _name_fields() -> list[tuple[str, models.CharField]]:  # type: ignore[type-arg]
    found = []
    for model in apps.get_models():
        path = Path(apps.get_app_config(model._meta.app_label).path)
        ours = path.is_relative_to(OURS) and "site-packages" not in path.parts
        if not ours and model is not get_user_model():
            continue
        for field in model._meta.get_fields():
            typed = isinstance(field, models.CharField) and field.editable and not field.choices
            if typed and NAME_LIKE.search(field.name):
                found.append((f"{model._meta.label}.{field.name}", field))
    return found


FIELDS = _name_fields()


def test_the_name_fields_are_found():
    labels = {label for label, _ in FIELDS}
    assert {
        "tournament.Tournament.name",
        "tournament.Pair.name",
        "tournament.Player.club",
        "people.Person.name",
        "season.Series.name",
        "signup.SignUp.player_1",
        "signup.SignUp.pair_name",
        "auth.User.first_name",
    } <= labels


@pytest.mark.parametrize(("label", "field"), FIELDS, ids=[label for label, _ in FIELDS])
@pytest.mark.parametrize("code", sorted(REFUSED))
def test_every_name_field_refuses_direction_and_zero_width_characters(label, field, code):
    with pytest.raises(ValidationError) as refused:
        field.run_validators(REFUSED[code])
    assert refused.value.error_list[0].code == "name_control_character", label
    assert code in str(refused.value.messages[0])
    field.run_validators("Søren Ærø — سارة")  # every script is still a name


@pytest.mark.parametrize(
    "char",
    ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u180e", "\u00ad", "\u2028", "\u3164",
     "\U000e0041", "\u2066", "\u202a"],
)  # fmt: skip
def test_invisible_characters_are_refused_with_their_code_in_both_languages(char):
    with pytest.raises(ApplicationError) as refused:
        name_check(f"Kirsten{char}Pedersen", field="name")
    code = f"U+{ord(char):04X}"
    assert refused.value.code == "name_control_character"
    assert code in refused.value.message_en and code in refused.value.message_da


@pytest.mark.django_db
def test_the_season_api_refuses_a_hidden_character_in_both_languages():
    client = APIClient()
    client.force_login(UserFactory(username="season-org"))
    for name in REFUSED.values():
        answer = client.post("/api/seasons/", {"name": name, "method": "points"}, format="json")
        assert answer.status_code == 400, answer.content
        error = answer.json()["error"]
        assert error["code"] == "name_control_character"
        assert "usynligt" in error["message_da"] and "invisible" in error["message_en"]


@pytest.mark.django_db
def test_the_season_form_refuses_a_hidden_character(client):
    client.force_login(UserFactory(username="season-org"))
    answer = client.post("/organise/seasons/new/", {"name": "Sæson\u200b 2026", "method": "points"})
    assert answer.status_code in (200, 400)
    assert "U+200B" in answer.content.decode()
    assert not Series.objects.exists()


@pytest.mark.django_db
def test_the_admin_refuses_a_hidden_character_in_an_account_name():
    user = UserFactory(username="kirsten", first_name="Kirsten\u200b")
    with pytest.raises(ValidationError) as refused:
        user.full_clean()
    assert "first_name" in refused.value.message_dict
