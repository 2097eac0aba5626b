"""First-run setup: a server with no account makes its first one with a one-time code."""

from __future__ import annotations

import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import SetupCode
from accounts.tokens import secret_hash
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

URL = "/setup/"


def _code() -> str:
    out = io.StringIO()
    call_command("setup_code", stdout=out)
    text = out.getvalue()
    marker = "setup code"
    return text[text.index(marker) + len(marker) :].split()[0]


def _form(code: str, username: str = "formand") -> dict[str, str]:
    return {
        "code": code,
        "username": username,
        "email": "formand@example.dk",
        "password1": "Kongens Kort 2026!",
        "password2": "Kongens Kort 2026!",
    }


def test_the_url_is_the_one_the_terminal_prints():
    assert reverse("accounts:setup") == URL


def test_the_right_code_makes_the_federations_administrator_and_signs_in():
    code = _code()
    client = Client()
    assert client.get(URL).status_code == 200
    response = client.post(URL, _form(code))
    assert response.status_code == 302
    user = get_user_model().objects.get()
    assert (user.username, user.is_staff, user.is_superuser) == ("formand", True, True)
    assert user.check_password("Kongens Kort 2026!")
    assert client.get(reverse("accounts:home")).status_code == 200
    # Once an account exists the page is gone, for everyone.
    assert client.get(URL).status_code == 404
    assert Client().get(URL).status_code == 404


def test_the_code_is_stored_hashed_and_typed_loosely():
    code = _code()
    stored = SetupCode.objects.get()
    assert code not in stored.code_hash and stored.code_hash == secret_hash(code)
    typed = code.lower().replace("-", " ")
    assert Client().post(URL, _form(typed)).status_code == 302


def test_a_wrong_code_makes_nothing():
    _code()
    response = Client().post(URL, _form("AAAA-BBBB-CCCC-DDDD"))
    assert response.status_code == 403
    assert "opsætningskode er forkert" in response.content.decode()
    assert not get_user_model().objects.exists()


def test_a_used_code_is_refused_even_if_the_accounts_are_gone():
    code = _code()
    assert Client().post(URL, _form(code)).status_code == 302
    get_user_model().objects.all().delete()
    response = Client().post(URL, _form(code, "another"))
    assert response.status_code == 403
    assert not get_user_model().objects.exists()


def test_an_expired_code_is_refused():
    code = _code()
    SetupCode.objects.update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    response = Client().post(URL, _form(code))
    assert response.status_code == 403
    assert "udløbet" in response.content.decode()
    assert not get_user_model().objects.exists()


def test_a_new_code_replaces_the_previous_one():
    first = _code()
    second = _code()
    assert Client().post(URL, _form(first)).status_code == 403
    assert Client().post(URL, _form(second)).status_code == 302


def test_the_password_goes_through_djangos_validators():
    code = _code()
    response = Client().post(URL, {**_form(code), "password1": "123", "password2": "123"})
    assert response.status_code == 400
    assert not get_user_model().objects.exists()
    assert not SetupCode.objects.filter(used_at__isnull=False).exists()


def test_guessing_codes_is_limited():
    code = _code()
    client = Client()
    for _ in range(10):
        client.post(URL, _form("AAAA-BBBB-CCCC-DDDD"))
    assert client.post(URL, _form(code)).status_code == 429
    assert not get_user_model().objects.exists()


def test_no_code_once_accounts_exist():
    UserFactory()
    with pytest.raises(CommandError):
        call_command("setup_code", stdout=io.StringIO())
    out = io.StringIO()
    call_command("setup_code", "--if-no-accounts", stdout=out)
    assert out.getvalue() == ""
    assert not SetupCode.objects.exists()


def test_the_command_prints_the_address_and_the_code():
    out = io.StringIO()
    call_command("setup_code", "--if-no-accounts", "--site-url", "http://10.0.0.5:8000", stdout=out)
    assert "http://10.0.0.5:8000/setup/" in out.getvalue()
    assert SetupCode.objects.count() == 1
