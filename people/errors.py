"""Refusals of the people services.

This app sits below every other, so it cannot raise the tournament app's
``ApplicationError``; its callers (the season's services) check the common
cases first and turn a ``PersonRefused`` that still gets through (a race)
into their own bilingual error.
"""

from __future__ import annotations


class PersonRefused(ValueError):
    def __init__(self, code: str, message_en: str, message_da: str) -> None:
        super().__init__(message_en)
        self.code = code
        self.message_en = message_en
        self.message_da = message_da
