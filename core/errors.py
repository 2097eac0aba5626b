"""The one family of expected failures.

Every service raises ``ApplicationError`` (or a subclass) for anything a user
can cause: it carries a stable ``code`` (a RULES.md id where a game rule is
involved), a message in Danish and English, and the HTTP status the API
answers with. Views and the API turn it into a message; nothing user-facing
shows a stack trace.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from django.utils import translation
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _

Text = str | Promise


def in_language(text: Text, lang: str, params: Mapping[str, Any] | None = None) -> str:
    """``text`` (a ``gettext_lazy`` text) in ``lang``, with ``%(name)s`` filled from ``params``."""
    with translation.override(lang):
        rendered = str(text)
        if params:
            rendered = rendered % {
                key: in_language(value, lang) if isinstance(value, Promise) else value
                for key, value in params.items()
            }
    return rendered


def _in_active_language(english: str, danish: str) -> str:
    return english if (translation.get_language() or "da")[:2] == "en" else danish


_bilingual = lazy(_in_active_language, str)


def bilingual(english: str, danish: str) -> Promise:
    """A text already written in both languages (the rules engine's, which carries its
    own Danish) as a ``params`` value: each language gets its own."""
    return cast(Promise, _bilingual(english, danish))


class ApplicationError(Exception):
    """An expected failure a user can cause, in both languages.

    The message is one text marked for translation (``gettext_lazy``), its
    Danish in the app's catalogue; ``params`` fill its ``%(name)s`` places
    in each language:

        raise ApplicationError(
            "unknown_field", _("Unknown setting: %(names)s."), params={"names": names}
        )
    """

    status_code = 400

    def __init__(
        self,
        code: str,
        message: Text,
        message_da: str | None = None,
        *,
        params: Mapping[str, Any] | None = None,
        status: int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        if message_da is None:
            self.message_en = in_language(message, "en", params)
            self.message_da = in_language(message, "da", params)
        else:
            # A text already in both languages (the rules engine's refusals,
            # which stay plain Python and carry their own Danish).
            self.message_en = str(message)
            self.message_da = message_da
        super().__init__(self.message_en)
        self.code = code
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


NOT_ALLOWED = _("You may not do this.")


class PermissionDenied(ApplicationError):
    status_code = 403

    def __init__(
        self,
        message: Text = NOT_ALLOWED,
        message_da: str | None = None,
        *,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__("permission_denied", message, message_da, params=params)


class NotFound(ApplicationError):
    status_code = 404


class Conflict(ApplicationError):
    status_code = 409
