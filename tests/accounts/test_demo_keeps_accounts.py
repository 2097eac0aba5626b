"""The demo is made in an empty database only and never touches an account afterwards."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command

from competition.management.commands.demo_tournament import DEMO_SLUG
from tests.factories import UserFactory
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def _start_as_make_run_does() -> None:
    """The demo steps of ``make run`` / ``make venue`` (Makefile, target ``demo``)."""
    call_command("demo_tournament", "--if-empty", verbosity=0, stdout=io.StringIO())
    call_command("demo_season", "--if-empty", verbosity=0, stdout=io.StringIO())
    # What ``runall`` does to accounts on start (--venue adds the warning).
    call_command("setup_code", "--if-no-accounts", stdout=io.StringIO())
    call_command("demo_password_warning", stderr=io.StringIO())


def test_a_changed_password_survives_every_restart():
    _start_as_make_run_does()
    organiser = get_user_model().objects.get(username="organiser")
    assert authenticate(username="organiser", password="demo-organiser") is not None
    organiser.set_password("a real one for the day 2026")
    organiser.save()
    judge = get_user_model().objects.get(username="judge")
    judge.is_active = False
    judge.save()
    before = get_user_model().objects.get(username="organiser").password

    _start_as_make_run_does()
    _start_as_make_run_does()

    organiser.refresh_from_db()
    assert organiser.password == before
    assert authenticate(username="organiser", password="a real one for the day 2026") is not None
    assert authenticate(username="organiser", password="demo-organiser") is None
    judge.refresh_from_db()
    assert judge.is_active is False  # a deactivated demo account stays deactivated


def test_a_database_with_an_account_gets_no_demo_and_the_start_does_not_fail():
    real = UserFactory(username="formand", password="the federation's own")
    _start_as_make_run_does()
    assert not Tournament.objects.exists()
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["formand"]
    real.refresh_from_db()
    assert authenticate(username="formand", password="the federation's own") is not None


def test_another_ruleset_demo_uses_the_existing_accounts_as_they_are(settings):
    organiser = UserFactory(username="organiser", password="changed after the first start")
    call_command("demo_tournament", "--ruleset", "duo", verbosity=0, stdout=io.StringIO())
    organiser.refresh_from_db()
    assert organiser.check_password("changed after the first start")
    assert not Tournament.objects.filter(slug=DEMO_SLUG).exists()
    # The judge login was missing: made with the published password.
    assert authenticate(username="judge", password="demo-judge") is not None
