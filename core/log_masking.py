"""Secret links, codes and email addresses never reach a log line.

A table token in a URL (``/t/<token>/``, ``/api/table/<token>/…``) is the
table's whole credential, and a short code (``/t/?code=…``) opens it too; a
sign-up's private link (``/signup/<token>/``) lets anyone withdraw it, and a
password reset or invitation link sets an account's password. Access logs
(runserver's ``django.server``, gunicorn's ``gunicorn.access``), Django's
"Not Found: …" and "Internal Server Error: …" lines and the worker's lines
all carry paths and addresses. Every log record is masked when it is made
(a record factory), so no logger, handler or format configured anywhere can
print one:

* a table token becomes ``[token:3f9a1c]`` (the first hex digits of its
  SHA-256, which an operator can match against ``Game.token_hash`` without
  learning the token), a sign-up link's token ``[link:…]`` likewise;
* any other path segment that looks like a signed or random token (Django's
  ``Signer`` output, a random base64url or hex string, a password reset
  token) and
  a password reset link's user part become ``[masked]``: links added later
  are covered without a rule of their own;
* ``code=``, ``token=``, ``key=`` and ``signature=`` values in a query
  string become ``[masked]``, an email address ``[email]``.

Installed by ``configure_logging`` (``settings.LOGGING_CONFIG``) in every
process that sets Django up: web (runserver, gunicorn workers), Celery
worker and beat, management commands. A traceback's text is not rewritten;
the messages of the exceptions the link endpoints raise carry no token.
"""

from __future__ import annotations

import hashlib
import logging
import logging.config
import re
from collections.abc import Callable, MutableMapping
from typing import Any

_SEGMENT = r"[^/?#\s\"'<>]+"
_TABLE_PATH = re.compile(rf"(/t/|/api/table/)({_SEGMENT})")
_SIGNUP_PATH = re.compile(rf"(/signup/)({_SEGMENT})")
# Django's password reset (and any link built the same way): /reset/<uidb64>/<token>/.
_RESET_PATH = re.compile(rf"(?<!/account)(/reset/){_SEGMENT}/(?!set-password\b){_SEGMENT}")
_QUERY_SECRET = re.compile(r"([?&](?:code|token|key|signature)=)([^&#\s\"'<>]+)")
_EMAIL = re.compile(r"[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
_ANY_SEGMENT = re.compile(r"(?<=/)[A-Za-z0-9_.:=-]{16,}(?=[/?#\s\"'<>]|$)")
# Django's Signer output ("value:signature", here also "value.signature"),
# a random base64url string (upper, lower and digits: a slug has no capitals),
# a password reset token (base-36 time, dash, 20+ hex digits), a random hex
# token of 128 bits or more.
_SIGNED = re.compile(r"[\w-]+[:.][\w-]{20,}")
_RESET_TOKEN = re.compile(r"[0-9a-z]{1,13}-[0-9a-f]{20,}")
_HEX_TOKEN = re.compile(r"[0-9a-fA-F]{32,}")
# An invitation link (/invite/<token>/) and the accounts' password reset link
# (/account/reset/<uid>/<token>/) are one-time credentials too; Django's reset
# view then moves the token into the session and redirects to "set-password".
_ACCOUNT_LINK = re.compile(rf"(/invite/|/account/reset/{_SEGMENT}/)({_SEGMENT})")
_NOT_SECRET = {"set-password"}


def _looks_secret(segment: str) -> bool:
    if any(shape.fullmatch(segment) for shape in (_SIGNED, _RESET_TOKEN, _HEX_TOKEN)):
        return True
    return (
        any(c.isupper() for c in segment)
        and any(c.islower() for c in segment)
        and any(c.isdigit() for c in segment)
    )


def _tag(kind: str) -> Callable[[re.Match[str]], str]:
    def tag(match: re.Match[str]) -> str:
        digest = hashlib.sha256(match.group(2).encode()).hexdigest()[:6]
        return f"{match.group(1)}[{kind}:{digest}]"

    return tag


_token_tag = _tag("token")
_link_tag = _tag("link")


def _segment_mask(match: re.Match[str]) -> str:
    return "[masked]" if _looks_secret(match.group()) else match.group()


def _account_tag(match: re.Match[str]) -> str:
    if match.group(2) in _NOT_SECRET:
        return match.group(0)
    return f"{match.group(1)}[masked]"


def mask_secrets(text: str) -> str:
    """``text`` with every secret link, query secret and email address masked."""
    if "/invite/" in text or "/account/reset/" in text:
        text = _ACCOUNT_LINK.sub(_account_tag, text)
    if "/" in text:
        text = _TABLE_PATH.sub(_token_tag, text)
        text = _SIGNUP_PATH.sub(_link_tag, text)
        text = _RESET_PATH.sub(r"\1[masked]/[masked]", text)
        text = _ANY_SEGMENT.sub(_segment_mask, text)
    if "=" in text:
        text = _QUERY_SECRET.sub(r"\1[masked]", text)
    if "@" in text:
        text = _EMAIL.sub("[email]", text)
    return text


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
