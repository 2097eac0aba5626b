"""Table links and short codes never reach a log line.

A table token in a URL (``/t/<token>/``, ``/api/table/<token>/…``) is the
table's whole credential, and a short code (``/t/?code=…``) opens it too.
Access logs (runserver's ``django.server``, gunicorn's ``gunicorn.access``),
Django's "Not Found: …" and "Internal Server Error: …" lines all carry the
path. Every log record is masked when it is made (a record factory), so no
logger, handler or format configured anywhere can print one: the token
becomes ``[token:3f9a1c]`` (the first hex digits of its SHA-256, which an
operator can match against ``Game.token_hash`` without learning the token)
and a code becomes ``code=[masked]``.

Installed by ``configure_logging`` (``settings.LOGGING_CONFIG``) in every
process that sets Django up: web (runserver, gunicorn workers), Celery
worker and beat, management commands. A traceback's text is not rewritten;
the messages of the exceptions the table endpoints raise carry no token.
"""

from __future__ import annotations

import hashlib
import logging
import logging.config
import re
from collections.abc import Callable, MutableMapping
from typing import Any

_TABLE_PATH = re.compile(r"(/t/|/api/table/)([^/?#\s\"'<>]+)")
_CODE_PARAM = re.compile(r"([?&]code=)([^&#\s\"'<>]+)")
# An invitation link (/invite/<token>/) and a password reset link
# (/account/reset/<uid>/<token>/) are one-time credentials too.
_ACCOUNT_LINK = re.compile(r"(/invite/|/account/reset/[^/?#\s\"'<>]+/)([^/?#\s\"'<>]+)")
# Django's reset view moves the token into the session and redirects here.
_NOT_SECRET = {"set-password"}


def _token_tag(match: re.Match[str]) -> str:
    digest = hashlib.sha256(match.group(2).encode()).hexdigest()[:6]
    return f"{match.group(1)}[token:{digest}]"


def _account_tag(match: re.Match[str]) -> str:
    if match.group(2) in _NOT_SECRET:
        return match.group(0)
    return f"{match.group(1)}[masked]"


def mask_secrets(text: str) -> str:
    """``text`` with every table token in a path, every ``code=`` value and every
    invitation or password reset token masked."""
    if "/invite/" in text or "/account/reset/" in text:
        text = _ACCOUNT_LINK.sub(_account_tag, text)
    if "/t/" not in text and "/api/table/" not in text and "code=" not in text:
        return text
    text = _TABLE_PATH.sub(_token_tag, text)
    return _CODE_PARAM.sub(r"\1[masked]", text)


def _masked(value: Any) -> Any:
    return mask_secrets(value) if isinstance(value, str) else value


def mask_record(record: logging.LogRecord) -> None:
    """Mask the record's message and arguments in place."""
    record.msg = _masked(record.msg)
    args = record.args
    if isinstance(args, tuple):
        record.args = tuple(_masked(arg) for arg in args)
    elif isinstance(args, MutableMapping):
        # In place: gunicorn's atoms are a dict subclass that answers "-" for
        # a missing key, which a plain copy would lose.
        for key, value in list(args.items()):
            args[key] = _masked(value)


def install_record_masking() -> None:
    """Make every log record of this process masked (idempotent)."""
    current = logging.getLogRecordFactory()
    if getattr(current, "masks_table_secrets", False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = current(*args, **kwargs)
        mask_record(record)
        return record

    masking: Callable[..., logging.LogRecord] = factory
    masking.masks_table_secrets = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(masking)


def configure_logging(config: dict[str, Any]) -> None:
    """``settings.LOGGING_CONFIG``: Django's dictConfig, then the masking."""
    logging.config.dictConfig(config)
    install_record_masking()
