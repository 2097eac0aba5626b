"""Table access tokens: the secret in the score sheet's QR code.

A token is an HMAC of a random per-game nonce (128 bits) under the site's
secret key, so the server can print it again without storing it; the
database holds only its SHA-256 (to find the game) and the nonce. Rotating
the nonce revokes every copy of the old token. A token is dead once its
round is closed or its game is finished and confirmed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from django.conf import settings
from django.db import transaction

from games.models import Game
from tournament.errors import ApplicationError, PermissionDenied

# Unambiguous characters for the short code players may type.
_SHORT_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
SHORT_CODE_LENGTH = 6


def _derive(nonce: str, game_id: int) -> str:
    mac = hmac.new(
        settings.SECRET_KEY.encode(), f"table-token:{game_id}:{nonce}".encode(), hashlib.sha256
    ).digest()
    return base64.urlsafe_b64encode(mac[:18]).decode().rstrip("=")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def game_token(*, game: Game) -> str:
    """The current table token of ``game`` (issuing one if it has none)."""
    if not game.token_nonce:
        game_token_rotate(game=game)
    return _derive(game.token_nonce, game.pk)


@transaction.atomic
def game_token_rotate(*, game: Game) -> str:
    """Issue a new token and short code; the old ones stop working at once."""
    game.token_nonce = secrets.token_hex(16)
    token = _derive(game.token_nonce, game.pk)
    game.token_hash = token_hash(token)
    game.short_code = _new_short_code()
    game.save(update_fields=["token_nonce", "token_hash", "short_code"])
    return token


def _new_short_code() -> str:
    while True:
        code = "".join(secrets.choice(_SHORT_ALPHABET) for _ in range(SHORT_CODE_LENGTH))
        if not Game.objects.filter(short_code=code).exists():
            return code


def normalise_short_code(code: str) -> str:
    return "".join(ch for ch in code.upper() if ch.isalnum()).replace("0", "O").replace("1", "I")


def game_from_token(*, token: str, for_write: bool = True) -> Game:
    """The game a presented token opens, or a bilingual error.

    ``for_write`` refuses tokens of closed rounds: such a link may still show
    the game but can no longer change it.
    """
    if not token or len(token) > 64:
        raise _bad_token()
    game = (
        Game.objects.select_related("round__tournament", "pair_yb", "pair_rg")
        .filter(token_hash=token_hash(token))
        .first()
    )
    if game is None or not hmac.compare_digest(_derive(game.token_nonce, game.pk), token):
        raise _bad_token()
    if for_write and game.round.status == game.round.Status.CLOSED:
        raise PermissionDenied(
            "This round is closed; the table link can no longer change the game.",
            "Denne runde er lukket; bordlinket kan ikke længere ændre spillet.",
        )
    return game


def _bad_token() -> ApplicationError:
    return ApplicationError(
        "table_token_invalid",
        "This table link is not valid (mistyped, or replaced by a newer one). Scan the QR code "
        "on the current score sheet or ask the organiser.",
        "Dette bordlink er ikke gyldigt (tastet forkert eller erstattet af et nyere). Scan "
        "QR-koden på det aktuelle scoreark, eller spørg arrangøren.",
        status=403,
    )
