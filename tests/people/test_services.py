"""Finding or creating people, merging duplicates (and undoing it), anonymising."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from people.errors import PersonRefused
from people.models import Person, PersonAudit, PersonMatch
from people.services import (
    person_anonymise,
    person_merge,
    person_merge_undo,
    persons_for_names,
)
from tests.factories import PersonFactory, PlayerFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_persons_for_names_finds_known_people_and_creates_the_rest():
    known = persons_for_names([("Mette Hansen", "Odense")])[0]
    found = persons_for_names(
        [("  mette  hansen", "ODENSE"), ("Mette Hansen", "Aarhus"), ("Jens Nielsen", "")]
    )
    assert found[0] == known
    # Same name in another club: not linked without asking (a suggestion instead).
    assert found[1] != known and found[1].club == "Aarhus"
    assert found[2].name == "Jens Nielsen" and found[2].pk is not None
    assert Person.objects.count() == 3


def test_the_same_new_name_twice_in_one_call_is_one_person():
    first, second = persons_for_names([("Ny Person", ""), ("ny person", "")])
    assert first.pk == second.pk


def test_merged_and_anonymised_people_are_never_matched():
    survivor = PersonFactory(name="Lars Nielsen", club="")
    duplicate = PersonFactory(name="Lars Nielsen", club="X")
    person_merge(survivor=survivor, duplicate=duplicate, actor=None)
    gone = PersonFactory(name="Bente Olsen", club="")
    person_anonymise(person=gone, actor=None)
    assert persons_for_names([("Lars Nielsen", "X")])[0] not in (survivor, duplicate)
    assert persons_for_names([("Bente Olsen", "")])[0] != gone


def test_finding_people_by_name_never_gives_or_takes_their_consent():
    known = PersonFactory(name="Anne Larsen", club="")
    public = PersonFactory(name="Bo Holm", club="", publish_consent=True, consent_at=timezone.now())
    found = persons_for_names([("Anne Larsen", ""), ("Bo Holm", ""), ("Carl Dam", "")])
    assert [p.pk for p in found[:2]] == [known.pk, public.pk]
    assert [Person.objects.get(pk=p.pk).publish_consent for p in found] == [False, True, False]


def test_merge_moves_every_reference_and_is_audited():
    user = UserFactory()
    survivor, duplicate = PersonFactory(name="Søren Poulsen"), PersonFactory(name="Soeren Poulsen")
    players = [PlayerFactory(person=duplicate), PlayerFactory(person=duplicate)]
    kept = PlayerFactory(person=survivor)
    merge = person_merge(survivor=survivor, duplicate=duplicate, actor=user, context="season:x")
    for player in (*players, kept):
        player.refresh_from_db()
        assert player.person_id == survivor.pk
    duplicate.refresh_from_db()
    assert duplicate.merged_into_id == survivor.pk
    assert merge.action == PersonAudit.Action.MERGE and merge.actor == user
    assert sorted(merge.data["moved"]["tournament.Player.person"]) == sorted(p.pk for p in players)


def test_merge_refuses_itself_a_merged_person_and_an_anonymised_one():
    a, b, c = PersonFactory(), PersonFactory(), PersonFactory()
    with pytest.raises(PersonRefused) as refused:
        person_merge(survivor=a, duplicate=a, actor=None)
    assert refused.value.code == "person_merge_same"
    person_merge(survivor=a, duplicate=b, actor=None)
    with pytest.raises(PersonRefused) as refused:
        person_merge(survivor=b, duplicate=c, actor=None)
    assert refused.value.code == "person_already_merged"
    person_anonymise(person=c, actor=None)
    with pytest.raises(PersonRefused) as refused:
        person_merge(survivor=a, duplicate=c, actor=None)
    assert refused.value.code == "person_anonymised"


def test_undo_puts_back_exactly_what_the_merge_moved():
    survivor, duplicate = PersonFactory(), PersonFactory()
    moved = PlayerFactory(person=duplicate)
    always = PlayerFactory(person=survivor)
    merge = person_merge(survivor=survivor, duplicate=duplicate, actor=None)
    later = PlayerFactory(person=survivor)  # registered after the merge
    person_merge_undo(merge=merge, actor=None)
    for player, owner in ((moved, duplicate), (always, survivor), (later, survivor)):
        player.refresh_from_db()
        assert player.person_id == owner.pk
    duplicate.refresh_from_db()
    assert duplicate.merged_into_id is None
    merge.refresh_from_db()
    assert merge.undone_at is not None
    with pytest.raises(PersonRefused):
        person_merge_undo(merge=merge, actor=None)


def test_undo_is_refused_once_the_survivor_was_merged_on():
    a, b, c = PersonFactory(), PersonFactory(), PersonFactory()
    first = person_merge(survivor=b, duplicate=a, actor=None)
    person_merge(survivor=c, duplicate=b, actor=None)
    with pytest.raises(PersonRefused) as refused:
        person_merge_undo(merge=first, actor=None)
    assert refused.value.code == "person_merge_superseded"


def test_merging_a_survivor_of_earlier_merges_takes_its_duplicates_along():
    a, b, c = PersonFactory(), PersonFactory(), PersonFactory()
    person_merge(survivor=b, duplicate=a, actor=None)
    person_merge(survivor=c, duplicate=b, actor=None)
    a.refresh_from_db()
    assert a.merged_into_id == c.pk


def test_anonymise_replaces_name_club_and_consent_of_the_person_and_its_duplicates():
    person = PersonFactory(
        name="Inge Clausen", club="Herning", publish_consent=True, consent_at=timezone.now()
    )
    duplicate = PersonFactory(name="Inge Klausen")
    person_merge(survivor=person, duplicate=duplicate, actor=None)
    done = person_anonymise(person=person, actor=None)
    assert sorted(old for _p, old in done) == ["Inge Clausen", "Inge Klausen"]
    for member in (person, duplicate):
        member.refresh_from_db()
        assert member.name == f"Anonym #{member.pk}"
        assert member.club == "" and member.name_key == "" and not member.publish_consent
        assert member.anonymised_at is not None
    assert person_anonymise(person=person, actor=None) == []  # twice: nothing more to do
    audits = PersonAudit.objects.filter(action=PersonAudit.Action.ANONYMISE)
    assert audits.count() == 2
    assert "Inge" not in repr(list(audits.values_list("data", flat=True)))


def test_admin_edits_keep_the_match_keys_in_step():
    person = PersonFactory(name="Tina Mortensen", club="Herning")
    person.name = "Tina  MORTENSEN-Bak"
    person.save()
    assert person.name_key == "tina mortensen-bak"
    assert persons_for_names([("tina mortensen-bak", "herning")])[0] == person


def test_a_players_person_is_kept_when_the_person_is_deleted():
    person = PersonFactory()
    player = PlayerFactory(person=person, tournament=TournamentFactory(date=datetime.date.today()))
    person.delete()
    player.refresh_from_db()
    assert player.person is None


def test_a_merge_keeps_the_survivors_own_consent():
    """A duplicate's consent (perhaps from someone else's form) never makes a
    person who did not agree public."""
    private = PersonFactory(name="Kirsten Pedersen", publish_consent=False)
    consenting = PersonFactory(
        name="Kirsten Pedersen", club="X", publish_consent=True, consent_at=timezone.now()
    )
    person_merge(survivor=private, duplicate=consenting, actor=None)
    private.refresh_from_db()
    assert not private.publish_consent and private.consent_at is None


def test_a_match_the_caller_may_not_link_is_a_new_person_and_a_suggestion():
    known = PersonFactory(name="Kirsten Pedersen", club="KB")
    (person,) = persons_for_names(
        [("kirsten pedersen", "kb")], may_link=lambda candidates: set(), context="tournament:7"
    )
    assert person != known and person.name == "kirsten pedersen"
    match = PersonMatch.objects.get()
    assert (match.new, match.known, match.context) == (person, known, "tournament:7")
    (linked,) = persons_for_names([("Kirsten Pedersen", "KB")], may_link=lambda c: {known.pk})
    assert linked == known and PersonMatch.objects.count() == 1
