"""An edit's tail: only changed fields are saved and audited, once."""

from __future__ import annotations

import pytest

from core.changes import changes_save
from tests.factories import TournamentFactory
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_only_the_changed_fields_are_saved_and_audited_as_text():
    tournament = TournamentFactory(venue="Odense", swiss_rounds=5)
    audited = []
    changed = changes_save(
        instance=tournament,
        values={"venue": "Vejle", "swiss_rounds": 5, "alert_minutes": 45},
        audit=audited.append,
    )
    assert changed == {"venue": "Vejle", "alert_minutes": 45}
    assert audited == [{"venue": "Vejle", "alert_minutes": "45"}]
    stored = Tournament.objects.get(pk=tournament.pk)
    assert (stored.venue, stored.alert_minutes) == ("Vejle", 45)


def test_nothing_changed_saves_and_audits_nothing():
    tournament = TournamentFactory(venue="Odense")
    audited = []
    assert changes_save(instance=tournament, values={"venue": "Odense"}, audit=audited.append) == {}
    assert audited == []
