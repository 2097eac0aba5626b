"""Forms of the season's organiser pages: each field checked as the API checks it
(season.validators); season.services holds the rules."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from people.models import Person
from season.models import Series, SeriesEvent
from season.services.series import SETTING_FIELDS
from season.validators import (
    collapse_spaces,
    points_table_check,
    points_table_read,
    season_validators,
)
from tournament.models import Tournament
from tournament.validators import SETTING_VALIDATORS


class DateInput(forms.DateInput):
    input_type = "date"


class SeriesForm(forms.ModelForm):
    points_table = forms.CharField(
        label=_("Points table"),
        max_length=1000,
        help_text=_("Points for 1st, 2nd, 3rd … place, separated by commas."),
    )

    class Meta:
        model = Series
        fields = [*SETTING_FIELDS[:1], "slug", *SETTING_FIELDS[1:]]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}
        help_texts = {
            "qualifiers_per_event": _("With “the best pairs of each qualifier”."),
            "best_results": _("With a points table: each pair's best results count."),
            "final_places": _("With a points table: this many pairs qualify."),
        }

    def __init__(self, *args: Any, creating: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _("Leave empty to make one from the name.")
        if not creating:
            del self.fields["slug"]
        for name, field in self.fields.items():
            if name != "points_table":  # read from its text first (clean_points_table)
                field.validators = [*field.validators, *season_validators(name)]
        # Shown as "25, 20, 16", not as the stored list's "[25, 20, 16]".
        table = self.instance.points_table if self.instance.pk else Series().points_table
        self.initial["points_table"] = ", ".join(str(p) for p in table)

    def _post_clean(self) -> None:
        # The model's own validation is not used: each field's checks are the
        # ones the API uses (season.validators), the rest is the service's.
        pass

    def clean_name(self) -> str:
        return str(collapse_spaces(self.cleaned_data["name"]))

    def clean_points_table(self) -> list[int]:
        points = points_table_read(self.cleaned_data["points_table"])
        points_table_check(points)
        return points

    def settings(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in SETTING_FIELDS}


class EventAddForm(forms.Form):
    tournament = forms.ModelChoiceField(label=_("Tournament"), queryset=Tournament.objects.none())
    kind = forms.ChoiceField(
        label=_("As"), choices=SeriesEvent.Kind.choices, initial=SeriesEvent.Kind.QUALIFIER
    )

    def __init__(self, *args: Any, tournaments: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tournament"].queryset = tournaments  # type: ignore[attr-defined]


class FinalForm(forms.Form):
    name = forms.CharField(
        label=_("Name of the final"), max_length=200, validators=SETTING_VALIDATORS["name"]
    )
    date = forms.DateField(label=_("Date"), widget=DateInput(format="%Y-%m-%d"))
    venue = forms.CharField(
        label=_("Venue"), max_length=200, required=False, validators=SETTING_VALIDATORS["venue"]
    )


class MergeForm(forms.Form):
    survivor = forms.ModelChoiceField(label=_("Keep"), queryset=Person.objects.none())
    duplicate = forms.ModelChoiceField(
        label=_("is the same person as"), queryset=Person.objects.none()
    )

    def __init__(self, *args: Any, persons: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("survivor", "duplicate"):
            self.fields[name].queryset = persons  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("survivor") and data.get("survivor") == data.get("duplicate"):
            raise forms.ValidationError(_("Choose two different people."))
        return data


class ApartForm(forms.Form):
    """Two people of a likely duplicate who are two humans."""

    first = forms.ModelChoiceField(queryset=Person.objects.none())
    second = forms.ModelChoiceField(queryset=Person.objects.none())

    def __init__(self, *args: Any, persons: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            self.fields[name].queryset = persons  # type: ignore[attr-defined]
