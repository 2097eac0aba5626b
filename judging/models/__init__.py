"""Judging: alerts, judge calls, rulings and penalties (added by their issues)."""
