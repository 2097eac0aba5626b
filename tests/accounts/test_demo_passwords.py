"""The demo's published passwords are never a way in on the venue network or in production."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.demo import DEMO_PASSWORDS
from core.management.commands.runall import Command as RunAll
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_accounts():
    for username, password in DEMO_PASSWORDS.items():
        UserFactory(username=username, password=password)


def _login(client: Client, username: str, password: str):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_on_the_venue_network_a_demo_password_is_refused_in_both_languages(demo_accounts, settings):
    settings.REFUSE_DEMO_PASSWORDS = True
    client = Client()
    response = _login(client, "organiser", "demo-organiser")
    assert response.status_code == 200  # the form again, with the reason
    assert "_auth_user_id" not in client.session
    assert "changepassword" in response.content.decode()
    assert "demoens offentliggjorte adgangskode" in response.content.decode()
    client.get(reverse("language_switch", args=["en"]))
    english = _login(client, "judge", "demo-judge").content.decode()
    assert "published password" in english
    # The admin's login form as well.
    UserFactory(username="sjef", password="demo-judge", is_staff=True)
    admin = Client()
    answer = admin.post(reverse("admin:login"), {"username": "sjef", "password": "demo-judge"})
    assert answer.status_code == 200
    assert "_auth_user_id" not in admin.session


def test_a_real_password_logs_in_on_the_venue_network(demo_accounts, settings):
    settings.REFUSE_DEMO_PASSWORDS = True
    UserFactory(username="formand", password="a real password 2026")
    client = Client()
    assert _login(client, "formand", "a real password 2026").status_code == 302


def test_make_run_on_this_machine_still_accepts_the_demo(demo_accounts, settings):
    settings.REFUSE_DEMO_PASSWORDS = False
    assert _login(Client(), "organiser", "demo-organiser").status_code == 302


def test_runall_venue_turns_the_refusal_on_for_its_processes():
    assert (
        RunAll.child_env(venue=True, site_url="http://10.0.0.5:8000")["REFUSE_DEMO_PASSWORDS"]
        == "True"
    )
    here = RunAll.child_env(venue=False, site_url="http://127.0.0.1:8000")
    assert here.get("REFUSE_DEMO_PASSWORDS") == os.environ.get("REFUSE_DEMO_PASSWORDS")


def test_runall_venue_warns_while_a_demo_account_has_its_password(demo_accounts):
    err = io.StringIO()
    call_command("demo_password_warning", stderr=err)
    assert "organiser" in err.getvalue() and "changepassword judge" in err.getvalue()
    from django.contrib.auth import get_user_model

    for user in get_user_model().objects.all():
        user.set_password("a real password 2026")
        user.save()
    err = io.StringIO()
    call_command("demo_password_warning", stderr=err)
    assert err.getvalue() == ""


def test_production_settings_refuse_demo_passwords():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DJANGO_SECRET_KEY": "x" * 60,
        "DJANGO_ALLOWED_HOSTS": "dm.example.dk",
    }
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.REFUSE_DEMO_PASSWORDS)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=django_settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "True"
