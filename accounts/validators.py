"""A password validator: never one of the demo's published passwords."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from accounts.demo import is_demo_password


class NotDemoPasswordValidator:
    """Refuses the passwords the README publishes for the demo logins."""

    def validate(self, password: str, user: Any = None) -> None:
        if is_demo_password(password):
            raise ValidationError(
                _("This is one of the demo's published passwords. Choose your own."),
                code="password_demo",
            )

    def get_help_text(self) -> str:
        return _("Your password cannot be one of the demo's published passwords.")
