"""Consent given before the history existed stays, marked legacy, tied to its sign-ups."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("signup", "0002_signup_singles"), ("people", "0002_consent_record")]
AFTER = [("signup", "0003_signup_consent_confirmation")]


@pytest.mark.django_db(transaction=True)
def test_existing_consent_becomes_legacy_grants_per_sign_up():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Person, SignUp = old.get_model("people", "Person"), old.get_model("signup", "SignUp")
    Tournament = old.get_model("tournament", "Tournament")
    now = timezone.now()
    signed_up = Person.objects.create(name="Legacy A", publish_consent=True, consent_at=now)
    by_hand = Person.objects.create(name="Legacy B", publish_consent=True, consent_at=now)
    private = Person.objects.create(name="Legacy C")
    tournament = Tournament.objects.create(name="Gammel", slug="gammel", date=now.date())
    signup = SignUp.objects.create(
        tournament=tournament,
        status="waitlisted",
        player_1="Legacy A",
        player_2="Legacy C",
        email="a@example.dk",
        consent_at=now,
        person_1=signed_up,
        person_2=private,
        client_id="old",
        link_nonce="n",
    )
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    records = new.get_model("people", "ConsentRecord").objects.order_by("person_id")
    assert [(r.person_id, r.given, r.via, r.source) for r in records] == [
        (signed_up.pk, True, "legacy", f"signup:{signup.pk}"),
        (by_hand.pk, True, "legacy", "legacy"),
    ]
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
