"""Organiser pages warn when emails would carry a loopback address, and say where mail is kept."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PAGES = ("signup:organiser_list", "tournament:organiser_settings")


def _page(open_event, name: str) -> str:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(open_event.organiser)
    response = client.get(reverse(name, args=[open_event.slug]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("name", PAGES)
def test_a_loopback_site_url_is_a_loud_warning_where_sign_up_is_organised(
    open_event, settings, name
):
    settings.SITE_URL = "http://127.0.0.1:8000"
    html = _page(open_event, name)
    assert 'id="email-address-warning"' in html and 'role="alert"' in html
    assert "E-mails vil indeholde en adresse, som kun denne computer kan åbne" in html
    assert "<code>http://127.0.0.1:8000</code>" in html


@pytest.mark.parametrize("name", PAGES)
def test_a_public_site_url_gives_no_warning(open_event, settings, name):
    settings.SITE_URL = "https://dm.example"
    assert 'id="email-address-warning"' not in _page(open_event, name)


def test_without_a_mail_server_the_page_says_where_emails_are_kept(open_event, settings, tmp_path):
    settings.EMAIL_BACKEND = "core.mail.PrivateFileEmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path / "mail")
    html = _page(open_event, "signup:organiser_list")
    assert 'id="email-kept-notice"' in html and str(tmp_path / "mail") in html
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert 'id="email-kept-notice"' not in _page(open_event, "signup:organiser_list")
