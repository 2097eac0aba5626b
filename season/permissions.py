"""Who may change a season: its organisers, and staff (who organise everything)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.errors import PermissionDenied
from core.users import Actor, signed_in
from season.models import Series, SeriesRole


def is_series_organiser(user: Actor, series: Series) -> bool:
    member = signed_in(user)
    if member is None or not member.is_active:
        return False
    if member.is_staff:
        return True
    return SeriesRole.objects.filter(series=series, user=member).exists()


def require_series_organiser(user: Actor, series: Series) -> None:
    if not is_series_organiser(user, series):
        raise PermissionDenied(
            _("Only an organiser of this season may do this."),
        )
