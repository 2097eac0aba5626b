"""A person's consent is their history: grants per source, withdrawals, merges."""

from __future__ import annotations

import pytest

from people.errors import PersonRefused
from people.models import ConsentRecord, Person
from people.services import person_anonymise, person_merge, person_merge_undo
from people.services_consent import person_consent_give, person_consent_withdraw
from tests.factories import PersonFactory

Via = ConsentRecord.Via
pytestmark = pytest.mark.django_db


def _flag(person: Person) -> bool:
    return Person.objects.get(pk=person.pk).publish_consent


def test_a_grant_holds_until_its_source_ends_or_the_person_withdraws():
    person = PersonFactory()
    person_consent_give(persons=[person], via=Via.EMAIL, source="signup:1")
    person_consent_give(persons=[person], via=Via.ORGANISER, source="tournament:a", reason="form")
    person_consent_withdraw(persons=[person], via=Via.SOURCE_ENDED, source="signup:1")
    assert _flag(person)  # the organiser's record still holds
    person_consent_withdraw(persons=[person], via=Via.SIGNUP_PAGE, source="signup:2")
    assert not _flag(person)  # the person's own withdrawal ends every grant
    person_consent_give(persons=[person], via=Via.EMAIL, source="signup:3")
    assert _flag(person) and Person.objects.get(pk=person.pk).consent_at is not None


def test_the_end_of_a_source_that_gave_nothing_is_not_recorded():
    person = PersonFactory()
    person_consent_withdraw(persons=[person], via=Via.SOURCE_ENDED, source="signup:9")
    assert not ConsentRecord.objects.exists()


def test_a_merge_never_gives_the_survivor_the_duplicates_consent_and_undo_gives_it_back():
    survivor, duplicate = PersonFactory(name="Søren Poulsen"), PersonFactory(name="Soeren Poulsen")
    person_consent_give(persons=[duplicate], via=Via.EMAIL, source="signup:4")
    merge = person_merge(survivor=survivor, duplicate=duplicate, actor=None)
    assert not _flag(survivor) and not _flag(duplicate)
    # The history stays with the record it is about.
    assert ConsentRecord.objects.get().person_id == duplicate.pk
    person_merge_undo(merge=merge, actor=None)
    assert _flag(duplicate) and not _flag(survivor)


def test_a_survivor_keeps_its_own_consent():
    survivor, duplicate = PersonFactory(), PersonFactory()
    person_consent_give(persons=[survivor], via=Via.ORGANISER, source="staff", reason="form")
    person_merge(survivor=survivor, duplicate=duplicate, actor=None)
    assert _flag(survivor)


def test_anonymised_and_merged_people_get_no_consent_and_lose_their_reasons():
    person = PersonFactory()
    person_consent_give(persons=[person], via=Via.ORGANISER, source="staff", reason="Inge's form")
    person_anonymise(person=person, actor=None)
    assert not _flag(person) and ConsentRecord.objects.get().reason == ""
    with pytest.raises(PersonRefused):
        person_consent_give(persons=[person], via=Via.EMAIL, source="signup:5")
    # A later end of a source does not bring the flag back either.
    person_consent_withdraw(persons=[person], via=Via.SOURCE_ENDED, source="staff")
    assert not _flag(person)
