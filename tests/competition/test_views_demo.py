"""The demo of `make run`: logins that match runall's banner, three rounds
played, round 4 in progress, and the pages showing it."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from competition.management.commands.demo_tournament import DEMO_SLUG
from games.models import Game
from tournament.models import Round, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_demo_tournament_state_and_pages():
    call_command("demo_tournament", "--if-empty")
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    rounds = list(tournament.rounds.order_by("number"))
    assert [r.status for r in rounds] == [Round.Status.CLOSED] * 3 + [Round.Status.IN_PROGRESS]
    assert tournament.pairs.count() == 24
    played = Game.objects.filter(round__in=rounds[:3])
    assert played.count() == 36
    assert not played.filter(winner="").exists()
    assert played.filter(timed_out=True).exists()
    assert not Game.objects.filter(round=rounds[3]).exclude(winner="").exists()

    organiser = authenticate(username="organiser", password="demo-organiser")
    # An organiser through the event's role, not a site administrator: /admin/
    # is for staff (docs/decisions.md), the demo shows what an organiser sees.
    assert organiser is not None and not organiser.is_staff
    assert tournament.roles.filter(user=organiser, role="organiser").exists()
    assert authenticate(username="judge", password="demo-judge") is not None

    html = Client().get(reverse("tournament:standings", args=[DEMO_SLUG])).content.decode()
    assert html.count('<td class="rank">') == 24

    client = Client()
    client.force_login(organiser)
    response = client.get(reverse("tournament:organiser_round", args=[DEMO_SLUG, 4]))
    assert response.status_code == 200
    assert response.content.decode().count('class="table-card') == 12

    call_command("demo_tournament", "--if-empty")  # a second run changes nothing
    assert Tournament.objects.count() == 1


def test_a_demo_event_per_ruleset():
    from competition.management.commands.demo_tournament import demo_slug

    call_command("demo_tournament", "--ruleset", "rulebook")
    tournament = Tournament.objects.get(slug=demo_slug("rulebook"))
    assert tournament.ruleset == "rulebook" and tournament.slug != DEMO_SLUG
    played = Game.objects.filter(round__tournament=tournament, round__number__lte=3)
    assert played.count() == 36 and not played.filter(winner="").exists()
    html = Client().get(reverse("tournament:standings", args=[tournament.slug])).content.decode()
    assert html.count('<td class="rank">') == 24


def test_the_duo_demo_is_a_singles_event_of_the_same_players():
    from competition.management.commands.demo_tournament import PAIRS, demo_slug

    call_command("demo_tournament", "--ruleset", "duo")
    tournament = Tournament.objects.get(slug=demo_slug("duo"))
    assert tournament.ruleset == "duo" and tournament.is_singles
    entrants = tournament.pairs.all()
    assert entrants.count() == 2 * len(PAIRS)
    assert not entrants.filter(player_2__isnull=False).exists()
    played = Game.objects.filter(round__tournament=tournament, round__number__lte=3)
    assert played.count() == 3 * len(PAIRS) and not played.filter(winner="").exists()
    # Two seats at a DUO table (docs/rulesets/duo.md S1).
    assert set(played.values_list("first_dealer", flat=True)) <= {"Y", "R"}
    html = Client().get(reverse("tournament:standings", args=[tournament.slug])).content.decode()
    assert html.count('<td class="rank">') == 2 * len(PAIRS)
