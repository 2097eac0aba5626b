"""What the print pages post, read as forms."""

from __future__ import annotations

from django import forms

from printing.services import PAGE_SIZES


class ScoreSheetsForm(forms.Form):
    """The score sheets' page size; A4 unless A5 is asked for."""

    size = forms.ChoiceField(choices=[(size, size) for size in PAGE_SIZES], required=False)

    def page_size(self) -> str:
        self.is_valid()
        return str(self.cleaned_data.get("size") or "A4")
