"""Likely duplicates put in front of the organiser."""

from __future__ import annotations

import pytest

from people.selectors import duplicate_suggestions
from people.services import person_merge
from tests.factories import PersonFactory

pytestmark = pytest.mark.django_db


def test_suggests_same_name_other_club_spelling_variants_and_similar_names_in_a_club():
    a = PersonFactory(name="Mette Hansen", club="Odense")
    b = PersonFactory(name="Mette Hansen", club="")
    c = PersonFactory(name="Søren Jørgensen", club="Aarhus")
    d = PersonFactory(name="Soeren Joergensen", club="Vejle")
    e = PersonFactory(name="Kirsten Pedersen", club="Roskilde")
    f = PersonFactory(name="Kirsten Petersen", club="Roskilde")
    g = PersonFactory(name="Kirsten Petersen", club="Kolding")  # similar, but other club
    PersonFactory(name="Lars Andersen", club="Roskilde")
    found = {
        frozenset((s.first.pk, s.second.pk)): s
        for s in duplicate_suggestions(persons=[a, b, c, d, e, f, g])
    }
    assert found[frozenset((a.pk, b.pk))].reason == "same_name_other_club"
    assert found[frozenset((c.pk, d.pk))].reason == "same_name_spelling"
    assert found[frozenset((e.pk, f.pk))].reason == "similar_name_same_club"
    assert found[frozenset((f.pk, g.pk))].reason == "same_name_other_club"
    assert frozenset((e.pk, g.pk)) not in found
    assert all(s.first.pk < s.second.pk for s in found.values())
    assert found[frozenset((a.pk, b.pk))].reason_da.startswith("Samme navn")


def test_people_known_apart_merged_or_anonymised_are_not_suggested():
    a = PersonFactory(name="Mette Hansen", club="Odense")
    b = PersonFactory(name="Mette Hansen", club="")
    c = PersonFactory(name="Mette Hansen", club="Vejle")
    assert len(duplicate_suggestions(persons=[a, b, c])) == 3
    apart = {frozenset((a.pk, b.pk))}
    assert len(duplicate_suggestions(persons=[a, b, c], apart=apart)) == 2
    person_merge(survivor=a, duplicate=c, actor=None)
    c.refresh_from_db()
    assert len(duplicate_suggestions(persons=[a, b, c], apart=apart)) == 0
