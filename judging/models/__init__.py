"""Judging: alerts, judge calls, rulings and penalties (added by their issues)."""

from judging.models.alert import Alert

__all__ = ["Alert"]
