"""Rulesets in forms, models and the API, their choices read from the engine's registry.

:func:`ruleset_choices` names every ruleset of :data:`games.engine.VARIANTS`
(the event's model field and forms use it). A :class:`RulesetField`'s schema
lists the same choices as the field's ``enum``, read when the schema is made
(a ruleset registered once is listed everywhere). The field stays a string
field: an input serializer checks the name with its own validators
(``tournament.validators``), whose refusal names the known rulesets in both
languages, as it did before the schema listed them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import get_language
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import build_choice_field
from rest_framework import serializers

from games.engine import VARIANTS


def ruleset_choices() -> list[tuple[str, str]]:
    """Every ruleset of the engine's registry with its name in the active language.
    A callable, so migrations keep the reference, not the list."""
    language = get_language() or settings.LANGUAGE_CODE
    return [(variant.name, variant.label(language)) for variant in VARIANTS.values()]


class RulesetField(serializers.CharField):
    """The name of a ruleset of the engine's registry (``dm2023``, …)."""


class RulesetFieldSchema(OpenApiSerializerFieldExtension):  # type: ignore[no-untyped-call]
    """The schema of a :class:`RulesetField`: one of :func:`ruleset_choices`, the
    same enum as the event's model field (``ENUM_NAME_OVERRIDES`` names it once)."""

    target_class = RulesetField
    match_subclasses = True

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        return build_choice_field(serializers.ChoiceField(choices=ruleset_choices()))
