"""core.users: who does something, as services record it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User

from core.errors import PermissionDenied
from core.users import signed_in, signed_in_user


def test_only_a_signed_in_user_is_recorded():
    user = User(username="dommer")
    assert signed_in(user) is user
    assert signed_in(AnonymousUser()) is None
    assert signed_in(None) is None  # the system: a clock running out, the waitlist


def test_a_write_that_needs_a_user_refuses_an_anonymous_visitor():
    user = User(username="arrangør")
    assert signed_in_user(user) is user
    with pytest.raises(PermissionDenied) as refused:
        signed_in_user(AnonymousUser())
    assert refused.value.status_code == 403
    assert refused.value.message_da == "Log ind først."
