"""Invitation and password reset links never reach a log line (core/log_masking.py)."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.services import invitation_create
from core.log_masking import mask_secrets
from tests.factories import TournamentFactory, UserFactory, organiser_of
from tournament.models import TournamentRole

TOKEN = "x2Yk1vT0gS-3dq_8bJm9Qw4rE7uHn5cL6pA0zF1iK2o"


def test_invitation_and_reset_tokens_are_masked():
    assert (
        mask_secrets(f'"GET /invite/{TOKEN}/ HTTP/1.1" 200 3120')
        == '"GET /invite/[masked]/ HTTP/1.1" 200 3120'
    )
    assert (
        mask_secrets(f"Gone: /account/reset/MTI/{TOKEN}/") == "Gone: /account/reset/MTI/[masked]/"
    )
    # Where Django's view moves the token out of the address: nothing secret left.
    line = '"GET /account/reset/MTI/set-password/ HTTP/1.1" 200'
    assert mask_secrets(line) == line
    for page in ("/account/reset/", "/account/reset/sent/", "/account/reset/done/"):
        assert mask_secrets(f"GET {page} 200") == f"GET {page} 200"


@pytest.mark.django_db
def test_refused_links_log_without_their_token(caplog):
    event = TournamentFactory()
    sent = invitation_create(
        tournament=event, actor=organiser_of(event), role=TournamentRole.Role.JUDGE
    )
    token = sent.link.rstrip("/").rsplit("/", 1)[1]
    user = UserFactory(email="a@example.dk")
    reset = default_token_generator.make_token(user)
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    caplog.set_level(logging.INFO)
    client = Client()
    client.post(
        f"/invite/{token}/",
        {"username": "ny", "password1": "Lang nok 2026!", "password2": "Lang nok 2026!"},
    )
    Client().get(f"/invite/{token}/")  # used: 410, logged by Django
    Client().get(f"/invite/{token}x/")  # unknown: 404
    Client().get(f"/account/reset/{uid}/{reset}/")
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "/invite/" in logged
    assert token not in logged and reset not in logged
