"""The one-time secrets of accounts: made at random, kept only as their SHA-256."""

from __future__ import annotations

import hashlib
import secrets

# No 0/O, 1/I/L: a code is read off a terminal and typed on a phone.
SETUP_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
SETUP_CODE_LENGTH = 16  # about 79 bits


def secret_hash(secret: str) -> str:
    """The stored form of a code or link token: its SHA-256 in hex.

    A plain digest is enough (no slow hash): the secrets are random with 79
    bits (the code, which also expires within the hour and is rate-limited)
    or 256 bits (an invitation), so nothing is gained by guessing offline.
    """
    return hashlib.sha256(secret.encode()).hexdigest()


def new_setup_code() -> str:
    """A code like ``ABCD-EFGH-JKMN-PQRS``."""
    raw = "".join(secrets.choice(SETUP_ALPHABET) for _ in range(SETUP_CODE_LENGTH))
    return "-".join(raw[i : i + 4] for i in range(0, SETUP_CODE_LENGTH, 4))


def setup_code_normalised(typed: str) -> str:
    """What a person typed as the code, as it was issued (case, spaces and dashes forgiven)."""
    raw = "".join(ch for ch in typed.upper() if ch.isalnum())
    return "-".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def new_invitation_token() -> str:
    """256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)
