"""Refusals of the people services.

Its callers (the season's services) check the common cases first and turn a
``PersonRefused`` that still gets through (a race) into their own error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import Text, in_language


class PersonRefused(ValueError):
    """A refusal with one text marked for translation, its Danish in people's catalogue."""

    def __init__(self, code: str, message: Text, *, params: Mapping[str, Any] | None = None):
        self.code = code
        self.message_en = in_language(message, "en", params)
        self.message_da = in_language(message, "da", params)
        super().__init__(self.message_en)
