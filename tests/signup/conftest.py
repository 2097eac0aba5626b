"""A tournament with online sign-up open, and a way to sign a pair up."""

from __future__ import annotations

import datetime
import itertools

import pytest
from django.utils import timezone

from signup.services.signups import signup_submit
from tests.factories import TournamentFactory, organiser_of

_numbers = itertools.count(1)


@pytest.fixture
def open_event(db):
    tournament = TournamentFactory(
        signup_closes_at=timezone.now() + datetime.timedelta(days=7), signup_capacity=2
    )
    tournament.organiser = organiser_of(tournament)
    return tournament


def sign_up(tournament, **fields):
    """Sign up a new pair (unique names unless given)."""
    n = next(_numbers)
    values = {
        "player_1": f"Spiller {n}a",
        "player_2": f"Spiller {n}b",
        "email": f"par{n}@example.dk",
        "consent": True,
        "client_id": f"form-{n}",
        **fields,
    }
    return signup_submit(tournament=tournament, **values)
