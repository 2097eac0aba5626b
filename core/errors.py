"""The one family of expected failures.

Every service raises ``ApplicationError`` (or a subclass) for anything a user
can cause: it carries a stable ``code`` (a RULES.md id where a game rule is
involved), a message in Danish and English, and the HTTP status the API
answers with. Views and the API turn it into a message; nothing user-facing
shows a stack trace.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation


class ApplicationError(Exception):
    status_code = 400

    def __init__(
        self,
        code: str,
        message_en: str,
        message_da: str,
        *,
        status: int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message_en)
        self.code = code
        self.message_en = message_en
        self.message_da = message_da
        if status is not None:
            self.status_code = status
        self.extra = extra or {}

    @property
    def message(self) -> str:
        """The message in the active language (Danish unless English is chosen)."""
        lang = (translation.get_language() or "da")[:2]
        return self.message_en if lang == "en" else self.message_da

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "message_en": self.message_en,
            "message_da": self.message_da,
            **self.extra,
        }


class PermissionDenied(ApplicationError):
    status_code = 403

    def __init__(
        self, message_en: str = "You may not do this.", message_da: str = "Det må du ikke."
    ) -> None:
        super().__init__("permission_denied", message_en, message_da)


class NotFound(ApplicationError):
    status_code = 404


class Conflict(ApplicationError):
    status_code = 409
