"""Who may change a season: its organisers, and staff (who organise everything)."""

from __future__ import annotations

from typing import Any

from core.errors import PermissionDenied
from season.models import Series, SeriesRole


def is_series_organiser(user: Any, series: Series) -> bool:
    if not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        return False
    if getattr(user, "is_staff", False):
        return True
    return SeriesRole.objects.filter(series=series, user=user).exists()


def require_series_organiser(user: Any, series: Series) -> None:
    if not is_series_organiser(user, series):
        raise PermissionDenied(
            "Only an organiser of this season may do this.",
            "Kun en arrangør af denne sæson må gøre dette.",
        )
