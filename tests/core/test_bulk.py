"""core.bulk.rows_insert writes what the ORM would have written, on either database."""

from __future__ import annotations

import datetime

import pytest

from core.bulk import rows_insert
from ratings.models import PersonRating
from tests.factories import PersonFactory

pytestmark = pytest.mark.django_db


def test_rows_read_back_through_the_orm_as_written():
    people = [PersonFactory(), PersonFactory()]
    at = datetime.datetime(2026, 11, 28, 9, 30, 15, 250000, tzinfo=datetime.UTC)
    count = rows_insert(
        PersonRating,
        ("person_id", "mu", "sigma", "games", "wins", "updated_at"),
        ((p.pk, 25.5 + n, 8.25, n + 1, n, at) for n, p in enumerate(people)),
    )
    assert count == 2
    stored = list(PersonRating.objects.order_by("person_id"))
    assert [(r.person_id, r.mu, r.sigma, r.games, r.wins) for r in stored] == [
        (people[0].pk, 25.5, 8.25, 1, 0),
        (people[1].pk, 26.5, 8.25, 2, 1),
    ]
    assert all(r.updated_at == at for r in stored)
    # Filtering by the stored time works too (the value is in the ORM's format).
    assert PersonRating.objects.filter(updated_at=at).count() == 2
