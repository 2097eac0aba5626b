"""Email on the embedded default: each message a private file, never the console.

Without ``EMAIL_URL`` there is no mail server to send through. Django's
console backend printed every message, recipient and private link included,
into the worker's log. Here each message is written to its own ``.eml`` file
in ``var/mail/`` (folder 0700, file 0600), which the organiser opens in a
mail program or reads and forwards by hand; the log gets one line naming the
file and how many recipients it has, never an address or a link.
"""

from __future__ import annotations

import datetime
import logging
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend

from core.private_paths import private_folder
from core.venue import is_loopback_url

logger = logging.getLogger(__name__)


def mail_folder() -> Path:
    """Where the embedded default keeps the messages it could not send."""
    return Path(getattr(settings, "EMAIL_FILE_PATH", None) or Path(settings.VAR_DIR) / "mail")


class PrivateFileEmailBackend(BaseEmailBackend):
    """One ``.eml`` file per message, readable by this account only."""

    def __init__(self, file_path: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.folder = Path(file_path) if file_path else mail_folder()

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        if not email_messages:
            return 0
        private_folder(self.folder)
        sent = 0
        for message in email_messages:
            if not message.recipients():
                continue
            path = self._write(message)
            logger.info(
                "Email to %d recipient(s) kept in %s (no mail server: EMAIL_URL is not set)",
                len(message.recipients()),
                path,
            )
            sent += 1
        return sent

    def _write(self, message: EmailMessage) -> Path:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = self.folder / f"{stamp}-{secrets.token_hex(4)}.eml"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(message.message().as_bytes())
        return path


@dataclass(frozen=True)
class OutgoingMail:
    """What an organiser must know before emails go out from this installation."""

    site_url: str
    # The links in emails name this computer only (127.0.0.1, localhost).
    unreachable: bool
    # No mail server: the folder the messages are kept in instead ("" if sent).
    kept_in: str


def outgoing_mail() -> OutgoingMail:
    backend = f"{__name__}.{PrivateFileEmailBackend.__name__}"
    kept = backend == settings.EMAIL_BACKEND
    return OutgoingMail(
        site_url=settings.SITE_URL,
        unreachable=is_loopback_url(settings.SITE_URL),
        kept_in=str(mail_folder()) if kept else "",
    )
