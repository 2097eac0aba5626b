"""The demo season of `make run`: two qualifiers played, a third open for sign-up."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from people.models import ConsentRecord, Person
from season.management.commands.demo_season import OPEN_QUALIFIER, SEASON_SLUG, SIGN_UPS
from season.models import Series
from season.selectors import series_overview, series_people
from signup.models import SignUp

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_demo_season_state_and_pages():
    call_command("demo_tournament", "--if-empty", verbosity=0)
    call_command("demo_season", "--if-empty", verbosity=0)
    series = Series.objects.get(slug=SEASON_SLUG)
    overview = series_overview(series=series)
    assert [c.status for c in overview.calendar] == ["finished", "finished", "upcoming"]
    assert len(overview.qualified) == 2 * series.qualifiers_per_event
    capacity = OPEN_QUALIFIER[2]
    statuses = list(SignUp.objects.values_list("status", flat=True))
    assert statuses.count("confirmed") == capacity
    assert statuses.count("waitlisted") == len(SIGN_UPS) - capacity
    # The spelling variant in the second qualifier is put before the organiser.
    assert any(s.reason == "same_name_spelling" for s in series_people(series=series).suggestions)
    assert Client().get(reverse("season:overview", args=[SEASON_SLUG])).status_code == 200
    # Consent as players give it: by their emailed link or the organiser's record of
    # a form; the players who signed up for nothing stay private.
    consenting = Person.objects.filter(publish_consent=True)
    assert 0 < consenting.count() < Person.objects.count()
    assert set(ConsentRecord.objects.values_list("via", flat=True)) == {"email", "organiser"}
    call_command("demo_season", "--if-empty", verbosity=0)  # a second run changes nothing
    assert Series.objects.count() == 1
