"""The login forms of the site and the admin: rate-limited, and never a demo password
where it is real (the venue network, production; accounts/demo.py)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.demo import demo_passwords_refused, is_demo_password
from core.ratelimit import (
    RateLimitedAdminAuthenticationForm,
    RateLimitedAuthenticationForm,
    RateLimitedLoginView,
)
from core.request import field_text

DEMO_PASSWORD_REFUSED = _(
    "This is the demo's published password, and it is not accepted here (venue network or "
    "production). Set a real password: on this computer run "
    "“python manage.py changepassword <username>”, or sign in with “make run” (this "
    "computer only) and change it under My account → Change password."
)


# Longer than any published demo password: a longer one is not one of them.
PASSWORD_LENGTH = 200


class DemoPasswordRefusal:
    """Refuses a published demo password before anything else is checked."""

    data: Any

    def clean(self) -> dict[str, Any]:
        password = field_text(self.data, "password", max_length=PASSWORD_LENGTH)
        if demo_passwords_refused() and is_demo_password(password):
            raise forms.ValidationError(DEMO_PASSWORD_REFUSED, code="demo_password")
        cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]
        return cleaned


class AccountLoginForm(DemoPasswordRefusal, RateLimitedAuthenticationForm):
    pass


class AccountAdminLoginForm(DemoPasswordRefusal, RateLimitedAdminAuthenticationForm):
    pass


class AccountLoginView(RateLimitedLoginView):
    authentication_form = AccountLoginForm
