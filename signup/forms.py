"""The public sign-up form. It only parses; signup.services decides."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.validators import PAIR_VALIDATORS

# The honeypot: a field people never see (it sits off-screen, out of the tab
# order) but form-filling robots do. A filled one is refused.
HONEYPOT = "website"


class SignUpForm(forms.Form):
    player_1 = forms.CharField(
        label=_("Player 1"), max_length=120, validators=PAIR_VALIDATORS["player_1"]
    )
    player_2 = forms.CharField(
        label=_("Player 2"), max_length=120, validators=PAIR_VALIDATORS["player_2"]
    )
    pair_name = forms.CharField(
        label=_("Pair name (optional)"),
        max_length=200,
        required=False,
        validators=PAIR_VALIDATORS["name"],
    )
    club = forms.CharField(
        label=_("Club (optional)"),
        max_length=120,
        required=False,
        validators=PAIR_VALIDATORS["club"],
    )
    email = forms.EmailField(
        label=_("Contact email"),
        max_length=254,
        help_text=_(
            "Only the organiser sees it. The confirmation and your private link are sent here."
        ),
    )
    consent = forms.BooleanField(
        label=_("We both agree that our names, club and results are published on this site."),
        help_text=_(
            "Nothing is published until you confirm it with the link we email you; "
            "you can withdraw it at any time."
        ),
    )
    client_id = forms.CharField(widget=forms.HiddenInput, max_length=64)
    website = forms.CharField(
        label=_("Leave this field empty"),
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )

    def __init__(self, *args: Any, singles: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"client_id": uuid.uuid4().hex})
        super().__init__(*args, **kwargs)
        if singles:
            # A singles event: one player signs up, without partner or pair name.
            del self.fields["player_2"]
            del self.fields["pair_name"]
            self.fields["player_1"].label = _("Player")
            self.fields["consent"].label = _(
                "I agree that my name, club and results are published on this site."
            )
        for name in ("player_1", "player_2"):
            if name in self.fields:
                self.fields[name].widget.attrs["autocomplete"] = "name"
        self.fields["email"].widget.attrs["autocomplete"] = "email"

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get(HONEYPOT):
            # Shown above the form: the field itself is off-screen.
            raise forms.ValidationError(
                _("The sign-up was not sent: leave the last field empty and try again.")
            )
        for key in ("player_1", "player_2", "pair_name", "club"):
            if isinstance(data.get(key), str):
                data[key] = " ".join(data[key].split())
        return data

    def submission(self) -> dict[str, Any]:
        """The cleaned values as ``signup_submit`` keyword arguments."""
        return {k: v for k, v in self.cleaned_data.items() if k != HONEYPOT}

    def visible_fields_but_honeypot(self) -> list[Any]:
        return [f for f in self.visible_fields() if f.name != HONEYPOT]


class RejectForm(forms.Form):
    note = forms.CharField(label=_("Note to the pair (optional)"), max_length=500, required=False)


OWN_CONSENT_ACTIONS = ("consent_withdraw", "consent_request")


class OwnPageForm(forms.Form):
    """A button of a pair's own page: withdraw (no action) or a consent action."""

    action = forms.ChoiceField(choices=[(a, a) for a in OWN_CONSENT_ACTIONS], required=False)

    def chosen_action(self) -> str:
        """The consent action asked for, or "" (the withdraw button, or anything else)."""
        self.is_valid()
        return str(self.cleaned_data.get("action") or "")


class ConsentAnswerForm(forms.Form):
    """The confirmation link's answer: yes or no; anything else is no answer."""

    answer = forms.ChoiceField(choices=[("yes", "yes"), ("no", "no")], required=False)

    def chosen_answer(self) -> str:
        self.is_valid()
        return str(self.cleaned_data.get("answer") or "")
