"""Judge entries in words on the judges' pages (games/judge_words.py)."""

from __future__ import annotations

from django import template

from games.engine import get_ruleset
from games.judge_words import judge_entry_words

register = template.Library()


@register.filter
def judge_words(text: str, ruleset: str = "") -> str:
    """``{{ entry.text|judge_words:tournament.ruleset }}``: "! VOID 12" → "Entries voided: 12"."""
    try:
        rules = get_ruleset(ruleset) if ruleset else None
    except ValueError:
        rules = None
    return judge_entry_words(text, rules)
