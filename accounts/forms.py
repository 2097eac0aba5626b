"""The forms of accounts: the boundary that checks names, passwords and codes."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from core.users import User
from tournament.models import TournamentRole


class NewAccountForm(UserCreationForm):  # type: ignore[type-arg]
    """A username (unique) and a password checked by every password validator."""

    email = forms.EmailField(
        label=_("Email (optional)"),
        required=False,
        help_text=_("Only for resetting your password if you forget it."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class SetupForm(NewAccountForm):
    code = forms.CharField(
        label=_("Setup code"),
        max_length=40,
        help_text=_("Printed in the server's terminal (or: python manage.py setup_code)."),
    )

    field_order = ["code", "username", "email", "password1", "password2"]


class InvitationCreateForm(forms.Form):
    role = forms.ChoiceField(
        label=_("Role"), choices=TournamentRole.Role.choices, initial=TournamentRole.Role.JUDGE
    )
    email = forms.EmailField(
        label=_("Email (optional)"),
        required=False,
        help_text=_("The link is also emailed to this address."),
    )


class PasswordConfirmForm(forms.Form):
    """The user's own password, asked before a step that cannot be undone by them."""

    password = forms.CharField(
        label=_("Your password"), strip=False, widget=forms.PasswordInput, max_length=200
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="password_wrong")
        return password
