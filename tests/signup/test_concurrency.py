"""Sign-ups racing for the last place, and a double tap, on real PostgreSQL."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from signup.models import SignUp
from signup.services.signups import signup_submit
from tests.concurrency import run_threads
from tests.factories import TournamentFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _submit(tournament, n: int, client_id: str) -> None:
    signup_submit(
        tournament=tournament,
        client_id=client_id,
        player_1=f"Race {n}a",
        player_2=f"Race {n}b",
        email=f"race{n}@example.dk",
        consent=True,
    )


def test_six_pairs_racing_for_two_places_get_two_places_and_a_waitlist(require_postgres):
    tournament = TournamentFactory(
        signup_closes_at=timezone.now() + datetime.timedelta(days=1), signup_capacity=2
    )
    errors = run_threads(lambda i: _submit(tournament, i, f"race-{i}"), 6)
    assert not errors, errors
    statuses = sorted(SignUp.objects.filter(tournament=tournament).values_list("status", flat=True))
    assert statuses == ["confirmed"] * 2 + ["waitlisted"] * 4
    assert tournament.pairs.count() == 2


def test_one_form_tapped_four_times_at_once_is_one_sign_up(require_postgres):
    tournament = TournamentFactory(signup_closes_at=timezone.now() + datetime.timedelta(days=1))
    errors = run_threads(lambda i: _submit(tournament, 0, "one-form"), 4)
    assert not errors, errors
    assert SignUp.objects.filter(tournament=tournament).count() == 1
    assert tournament.pairs.count() == 1
